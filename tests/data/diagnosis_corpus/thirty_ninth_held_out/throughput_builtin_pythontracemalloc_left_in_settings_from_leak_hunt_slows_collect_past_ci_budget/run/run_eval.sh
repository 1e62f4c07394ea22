#!/bin/bash
# weekly eval
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/throughput_builtin_pythontracemalloc_left_in_settings_from_leak_hunt_slows_collect_past_ci_budget/run
source /work/wt-h39/tests/data/diagnosis_corpus/held_out/throughput_builtin_pythontracemalloc_left_in_settings_from_leak_hunt_slows_collect_past_ci_budget/run/settings.env
echo "== weekly eval ($EVAL_SPLIT)"
/work/wt-h39/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h39/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34889/v1 --env string_match --concurrency 4
/work/wt-h39/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
