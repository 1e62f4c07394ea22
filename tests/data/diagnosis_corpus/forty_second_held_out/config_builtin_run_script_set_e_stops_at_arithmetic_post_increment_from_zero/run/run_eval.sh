#!/bin/bash
# weekly eval
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_set_e_stops_at_arithmetic_post_increment_from_zero/run
set -e
step=0
((step++))
echo "== [$step/3] materialize"
/work/wt-h42/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h42/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36081/v1 --env string_match --concurrency 4
/work/wt-h42/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
