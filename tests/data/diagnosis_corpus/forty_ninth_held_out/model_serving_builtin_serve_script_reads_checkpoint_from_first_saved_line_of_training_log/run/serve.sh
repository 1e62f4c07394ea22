#!/bin/bash
# serve.sh: serve the checkpoint the training run saved (read from its log)
CKPT=$(grep -m1 'saved checkpoint' /work/wt-h49/tests/data/diagnosis_corpus/held_out/model_serving_builtin_serve_script_reads_checkpoint_from_first_saved_line_of_training_log/run/train.log | awk '{print $NF}')
echo "serving $CKPT"
exec /work/wt-h49/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /work/wt-h49/tests/data/diagnosis_corpus/held_out/model_serving_builtin_serve_script_reads_checkpoint_from_first_saved_line_of_training_log/run/model_url.txt --checkpoint "$CKPT" --latency-ms 20
