#!/bin/bash
# the weekly eval: run inside the week's folder with MODEL_URL set
cd "$(dirname "$0")"
echo "== eval against $MODEL_URL"
/work/wt-h70/.venv/bin/gym-pipeline materialize --input ../string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
# --resume: a collect cut short (preemption, Ctrl-C) picks up where it stopped
/work/wt-h70/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \
  --env string_match --concurrency 4 --resume
/work/wt-h70/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
