#!/bin/bash
# weekly eval: materialize, collect, profile, row check
cd /work/h100/tests/data/diagnosis_corpus/hundredth_held_out/healthy_builtin_run_script_row_check_compares_task_and_rollout_line_counts_without_the_repeats_so_it_warns_mismatch/run
/work/h100/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h100/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39647/v1 --env string_match --concurrency 4
/work/h100/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
TASKS=$(wc -l < string_match.jsonl); DONE=$(wc -l < rollouts.jsonl)
if [ "$TASKS" != "$DONE" ]; then
  echo "WARNING: row count mismatch: $TASKS tasks in string_match.jsonl but $DONE rows in rollouts.jsonl"
fi
