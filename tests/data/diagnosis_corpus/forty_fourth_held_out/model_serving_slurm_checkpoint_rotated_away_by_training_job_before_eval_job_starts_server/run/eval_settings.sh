# this week's eval: the step_0200 checkpoint of the running training job
TRAIN_DIR=/tmp/ho-model_serving_slurm_-mb3u3gvj/training_run
CKPT=step_0200
