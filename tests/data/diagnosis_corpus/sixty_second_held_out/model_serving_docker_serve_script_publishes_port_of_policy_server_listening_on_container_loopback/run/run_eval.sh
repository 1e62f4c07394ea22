#!/bin/bash
# weekly eval against the containerized model server
cd /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/model_serving_docker_serve_script_publishes_port_of_policy_server_listening_on_container_loopback/run
bash serve.sh
sleep 12   # the server needs a few seconds to load
docker logs policy-53159 > logs/model_server.log 2>&1
cat logs/model_server.log
/work/wt-h62/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h62/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:53159/v1 --env string_match --concurrency 4
/work/wt-h62/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
docker stop policy-53159
