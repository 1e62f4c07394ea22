#!/bin/bash
# weekly eval
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_keeps_jq_easy_tasks_filter_from_a_quick_try/run
# build this week's task file
# cp string_match.jsonl tasks.jsonl
jq -c 'select(.difficulty <= 2)' string_match.jsonl > tasks.jsonl   # quick try on the easy tasks first
echo "== weekly eval of $(wc -l < tasks.jsonl) tasks"
/work/wt-h35/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h35/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35065/v1 --env string_match --concurrency 4
/work/wt-h35/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
