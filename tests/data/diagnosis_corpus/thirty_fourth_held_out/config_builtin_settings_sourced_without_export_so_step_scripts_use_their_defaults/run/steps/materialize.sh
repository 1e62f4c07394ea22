#!/bin/bash
# materialize step (defaults for a quick manual try)
/work/wt-h34/.venv/bin/gym-pipeline materialize --input ${DATA:-string_match.jsonl} --num-repeats ${REPEATS:-1} \
  --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
