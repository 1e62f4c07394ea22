#!/bin/bash
# serve.sh URL_FILE: serve the latest checkpoint of the training run
cd /work/wt-h74/tests/data/diagnosis_corpus/seventy_fourth_held_out/model_serving_builtin_serve_script_checkpoint_glob_one_level_too_shallow_after_trainer_nests_steps_in_run_folder/run
CKPT=$(ls -d checkpoints/*/ | sort | tail -1)
echo "serving $CKPT"
exec /work/wt-h74/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file "$1" --checkpoint "$CKPT" --latency-ms 20
