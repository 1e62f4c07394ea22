#!/bin/bash
# weekly eval of the newest checkpoint: restart the server on it, materialize, collect, profile
cd /work/h108/tests/data/diagnosis_corpus/hundred_and_eighth_held_out/model_serving_builtin_restart_script_kills_pid_of_bash_wrapper_so_last_weeks_server_keeps_the_port_and_serves_step_900/run
bash restart_server.sh ckpts/step_1000
/work/h108/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h108/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36495/v1 --env string_match --concurrency 4
/work/h108/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
