#!/bin/bash
# weekly eval against the policy container
cd /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/model_serving_docker_serve_script_mounts_checkpoints_dir_and_serves_latest_symlink_whose_absolute_host_target_is_absent_in_container/run
/work/h109/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h109/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:50345/v1 --env string_match --concurrency 4
/work/h109/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
