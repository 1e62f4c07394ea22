#!/bin/bash
# serve the newest checkpoint of the experiment for the weekly eval
CKPT_DIR=/tmp/ho-model_serving_builti-cmuxm3_k/ckpts/exp-0311-baseline
STEP=$(ls $CKPT_DIR | sort | tail -1)
echo "serving $CKPT_DIR/$STEP"
exec /work/wt-h37/.venv/bin/gym-pipeline serve-policy --checkpoint $CKPT_DIR/$STEP --port 0 --ready-file /work/wt-h37/tests/data/diagnosis_corpus/held_out/model_serving_builtin_serve_script_still_points_at_last_months_experiment_folder/run/model_url.txt --latency-ms 20
