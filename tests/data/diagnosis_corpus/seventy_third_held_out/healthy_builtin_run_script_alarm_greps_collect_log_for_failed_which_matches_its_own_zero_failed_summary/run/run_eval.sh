#!/bin/bash
# weekly eval; raises an alarm when collect reports failures
cd /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/healthy_builtin_run_script_alarm_greps_collect_log_for_failed_which_matches_its_own_zero_failed_summary/run
/work/wt-h73/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h73/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45599/v1 --env string_match --concurrency 4 2>&1 | tee logs/collect.log
/work/wt-h73/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
grep -i failed logs/collect.log && echo 'ALARM: failures in collect, check logs/collect.log'
