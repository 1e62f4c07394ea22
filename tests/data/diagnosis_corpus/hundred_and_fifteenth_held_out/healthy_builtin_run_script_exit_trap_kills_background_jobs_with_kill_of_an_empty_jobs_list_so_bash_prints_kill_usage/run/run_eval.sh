#!/bin/bash
# weekly eval
cd /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/healthy_builtin_run_script_exit_trap_kills_background_jobs_with_kill_of_an_empty_jobs_list_so_bash_prints_kill_usage/run
# stop whatever this script left running in the background
trap 'kill $(jobs -p)' EXIT
/work/h115/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h115/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36963/v1 --env string_match --concurrency 4
/work/h115/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo '== eval finished'
