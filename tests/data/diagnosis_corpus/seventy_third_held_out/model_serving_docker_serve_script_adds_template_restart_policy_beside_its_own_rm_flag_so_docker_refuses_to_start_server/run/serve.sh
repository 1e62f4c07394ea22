#!/bin/bash
# serve.sh READY_DIR: the model server in a container; flags from the platform's service template
# (restart on failure), ours: --rm so that no stopped container is left behind
docker run -d --rm --restart on-failure:3 --name h73-model-53949 --network host \
  -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h73/.venv:/work/wt-h73/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h73:/work/wt-h73:ro -v /tmp/ho-model_serving_docker-27mr88en/checkpoints/step_0200:/tmp/ho-model_serving_docker-27mr88en/checkpoints/step_0200:ro -v "$1":/ready \
  -e PYTHONPATH=/work/wt-h73 gym-pipeline/base:bookworm \
  /work/wt-h73/.venv/bin/python -m gym_pipeline.cli serve-policy --port 49287 --ready-file /ready/url --checkpoint /tmp/ho-model_serving_docker-27mr88en/checkpoints/step_0200 \
  --latency-ms 20
