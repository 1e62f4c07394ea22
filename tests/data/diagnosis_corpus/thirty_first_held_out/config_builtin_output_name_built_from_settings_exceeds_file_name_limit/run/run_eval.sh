#!/bin/bash
# weekly eval: the output names say what was run (the dashboard parses them)
cd /work/wt-h31/tests/data/diagnosis_corpus/held_out/config_builtin_output_name_built_from_settings_exceeds_file_name_limit/run
CHECKPOINT=/lustre/projects/post-training/string-match/runs/2026-11-27_lr3e-6_kl0.02_warmup200/checkpoints/step_0200
NOTE="weekly eval of the string match tasks with the sampling settings of the November tuning sweep"
TAG=$(echo "$CHECKPOINT $NOTE repeats=3 concurrency=4 temperature=0.7 top_p=0.95 max_tokens=1024 seed=1234 judge=none" | tr ' /=' '___')
echo "== weekly eval, tag $TAG"
/work/wt-h31/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h31/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts_$TAG.jsonl --model-url http://127.0.0.1:37523/v1 \
  --env string_match --concurrency 4
/work/wt-h31/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts_$TAG.jsonl
