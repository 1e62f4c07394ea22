#!/bin/bash
# weekly eval
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_drops_export_header_with_tail_n_2_instead_of_tail_n_plus_2/run
echo '== weekly eval'
# the export's first line is its header record, not a task: drop it
tail -n 2 tasks_export.jsonl > string_match.jsonl
echo "$(wc -l < string_match.jsonl) tasks"
/work/wt-h46/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h46/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41689/v1 --env string_match --concurrency 4
/work/wt-h46/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
