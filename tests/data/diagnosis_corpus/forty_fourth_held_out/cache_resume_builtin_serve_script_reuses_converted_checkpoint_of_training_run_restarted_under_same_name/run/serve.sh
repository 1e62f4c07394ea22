#!/bin/bash
# serve.sh EXPERIMENT STEP PORT: convert the training checkpoint to the serving layout (once), then serve it
TRAIN=/tmp/ho-cache_resume_builtin-ipgzne93/training/$1/checkpoints/$2
OUT=/work/wt-h44/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_serve_script_reuses_converted_checkpoint_of_training_run_restarted_under_same_name/run/converted/$1/$2
if [ -d "$OUT" ]; then
  echo "serve.sh: $OUT already converted, reusing it"
else
  mkdir -p "$(dirname "$OUT")" && cp -r "$TRAIN" "$OUT" && echo "serve.sh: converted $TRAIN -> $OUT"
fi
exec /work/wt-h44/.venv/bin/gym-pipeline serve-policy --port $3 --checkpoint "$OUT" --latency-ms 30
