#!/bin/bash
# weekly eval
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_err_trap_reports_todo_count_that_found_none/run
set -E
trap 'echo "ERROR: line $LINENO: \`$BASH_COMMAND\` exited $?" >&2' ERR
echo '== weekly eval'
echo -n 'labels still marked TODO: '; grep -c '"expected_answer": "TODO"' string_match.jsonl
/work/wt-h40/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h40/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45201/v1 --env string_match --concurrency 4
/work/wt-h40/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
