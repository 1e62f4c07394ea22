#!/bin/bash
# weekly eval of step_0200: materialize, collect, profile, load into results.db
cd /work/h102/tests/data/diagnosis_corpus/hundred_and_second_held_out/cache_resume_builtin_results_db_summary_table_made_with_create_table_if_not_exists_as_select_keeps_last_weeks_numbers/run
/work/h102/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h102/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41077/v1 --env string_match --concurrency 4
/work/h102/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
/work/h102/.venv/bin/python results_db.py rollouts.jsonl step_0200
