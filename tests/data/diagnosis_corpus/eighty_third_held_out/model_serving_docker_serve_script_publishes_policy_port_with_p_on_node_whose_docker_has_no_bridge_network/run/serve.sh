#!/bin/bash
# serve.sh: this week's checkpoint in the serving container, then the weekly eval against it
cd /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/model_serving_docker_serve_script_publishes_policy_port_with_p_on_node_whose_docker_has_no_bridge_network/run
PORT=42221
docker run -d --name h83-policy-42221 -p $PORT:$PORT -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h83/.venv:/work/wt-h83/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h83:/work/wt-h83:ro -v /tmp/ho-model_serving_docker-nsoiomdd/checkpoints:/tmp/ho-model_serving_docker-nsoiomdd/checkpoints:ro -e PYTHONPATH=/work/wt-h83 gym-pipeline/base:bookworm \
  /work/wt-h83/.venv/bin/python -m gym_pipeline.cli serve-policy --host 0.0.0.0 --port $PORT --checkpoint /tmp/ho-model_serving_docker-nsoiomdd/checkpoints/step_0200 --latency-ms 20
docker port h83-policy-42221
for i in $(seq 1 30); do curl -sf http://127.0.0.1:$PORT/v1/models > /dev/null && break; sleep 1; done
curl -sf http://127.0.0.1:$PORT/v1/models > /dev/null && echo "server ready" || echo "server not answering yet, going on"
