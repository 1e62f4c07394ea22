#!/bin/bash
# weekly eval
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_compares_tasks_with_last_weeks_copy_and_diff_exits_one_on_the_new_set/run
echo '== weekly eval'
# what changed in the tasks since last week (for the run notes)
diff -q string_match.jsonl last_week/string_match.jsonl || echo '(new tasks this week, as planned)'
/work/wt-h46/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h46/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34299/v1 --env string_match --concurrency 4
/work/wt-h46/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
