#!/bin/bash
# weekly eval against the served candidate
cd /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/model_serving_docker_serve_script_caps_policy_container_at_32_megabytes_from_sidecar_template_so_server_is_oom_killed_at_start/run
/work/h103/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h103/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42993/v1 --env string_match --concurrency 4
/work/h103/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
