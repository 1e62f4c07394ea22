#!/bin/bash
# weekly eval against the served candidate
cd /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/model_serving_docker_policy_container_hardened_with_read_only_root_filesystem_and_no_tmpfs_so_server_dies_at_import/run
/work/h105/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h105/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:50497/v1 --env string_match --concurrency 4
/work/h105/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
