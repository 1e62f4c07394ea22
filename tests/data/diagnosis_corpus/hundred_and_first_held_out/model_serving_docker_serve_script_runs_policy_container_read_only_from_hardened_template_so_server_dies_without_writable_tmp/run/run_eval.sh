#!/bin/bash
# weekly eval against the served candidate
cd /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/model_serving_docker_serve_script_runs_policy_container_read_only_from_hardened_template_so_server_dies_without_writable_tmp/run
/work/h101/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h101/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:46289/v1 --env string_match --concurrency 4
/work/h101/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
