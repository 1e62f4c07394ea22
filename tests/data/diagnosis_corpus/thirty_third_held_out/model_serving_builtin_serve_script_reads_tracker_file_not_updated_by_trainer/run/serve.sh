#!/bin/bash
# serve the newest checkpoint of the training run (the trainer keeps its number in the tracker file)
CKPTS=/tmp/ho-model_serving_builti-xkwf_7do/checkpoints
STEP=$(cat $CKPTS/latest_checkpointed_iteration.txt)
CKPT=$CKPTS/step_$(printf %04d $STEP)
echo "serving $CKPT"
exec /work/wt-h33/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /work/wt-h33/tests/data/diagnosis_corpus/held_out/model_serving_builtin_serve_script_reads_tracker_file_not_updated_by_trainer/run/model_url.txt --checkpoint $CKPT --latency-ms 20
