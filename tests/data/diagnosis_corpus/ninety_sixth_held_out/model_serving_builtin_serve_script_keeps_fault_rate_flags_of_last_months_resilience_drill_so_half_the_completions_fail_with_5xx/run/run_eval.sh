#!/bin/bash
# weekly eval against the server serve.sh started
cd /work/h96/tests/data/diagnosis_corpus/ninety_sixth_held_out/model_serving_builtin_serve_script_keeps_fault_rate_flags_of_last_months_resilience_drill_so_half_the_completions_fail_with_5xx/run
URL=$(cat model_url.txt)
echo "model server at $URL"
/work/h96/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h96/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
/work/h96/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
