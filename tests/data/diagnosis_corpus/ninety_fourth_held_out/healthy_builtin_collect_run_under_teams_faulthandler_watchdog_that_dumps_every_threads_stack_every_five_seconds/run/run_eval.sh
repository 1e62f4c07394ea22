#!/bin/bash
# weekly eval: materialize, collect under the hang watchdog, profile
cd /work/h94/tests/data/diagnosis_corpus/ninety_fourth_held_out/healthy_builtin_collect_run_under_teams_faulthandler_watchdog_that_dumps_every_threads_stack_every_five_seconds/run
/work/h94/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h94/.venv/bin/python watchdog.py gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33505/v1 --env string_match --concurrency 4
/work/h94/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
