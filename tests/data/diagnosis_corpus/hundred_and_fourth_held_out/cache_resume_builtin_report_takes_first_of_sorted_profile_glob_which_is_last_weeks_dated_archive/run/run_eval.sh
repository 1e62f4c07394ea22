#!/bin/bash
# weekly eval of step_0200: materialize, collect, profile, report
cd /work/h104/tests/data/diagnosis_corpus/hundred_and_fourth_held_out/cache_resume_builtin_report_takes_first_of_sorted_profile_glob_which_is_last_weeks_dated_archive/run
# keep last week's profile next to the new one
[ -f rollouts_reward_profiling.jsonl ] && mv rollouts_reward_profiling.jsonl \
  rollouts_reward_profiling.$(date -r rollouts_reward_profiling.jsonl +%F).jsonl
/work/h104/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h104/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38987/v1 --env string_match --concurrency 4
/work/h104/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
/work/h104/.venv/bin/python report.py
