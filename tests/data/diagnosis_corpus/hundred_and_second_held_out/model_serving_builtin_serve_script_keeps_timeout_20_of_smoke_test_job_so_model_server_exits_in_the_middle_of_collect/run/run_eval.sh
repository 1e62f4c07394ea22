#!/bin/bash
# weekly eval: serve step_0200, materialize, collect, profile
cd /work/h102/tests/data/diagnosis_corpus/hundred_and_second_held_out/model_serving_builtin_serve_script_keeps_timeout_20_of_smoke_test_job_so_model_server_exits_in_the_middle_of_collect/run
bash serve.sh checkpoints/step_0200 33529
/work/h102/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h102/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33529/v1 --env string_match --concurrency 4
/work/h102/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
wc -l rollouts.jsonl
