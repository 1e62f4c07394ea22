#!/bin/bash
# serve.sh STEP: the model server in a container on the node's network (port 39661); restarts with the node's
# Docker daemon so that a long eval survives a daemon upgrade
STEP=$1
docker run -d --restart unless-stopped --network host --name policy-39661-$STEP -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h64/.venv:/work/wt-h64/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h64:/work/wt-h64:ro -v /tmp/ho-model_serving_docker-tbusr1s0/checkpoints:/tmp/ho-model_serving_docker-tbusr1s0/checkpoints:ro \
  -e PYTHONPATH=/work/wt-h64 gym-pipeline/base:bookworm \
  /work/wt-h64/.venv/bin/python -m gym_pipeline.cli serve-policy --checkpoint /tmp/ho-model_serving_docker-tbusr1s0/checkpoints/$STEP --host 127.0.0.1 --port 39661 \
  --latency-ms 20
