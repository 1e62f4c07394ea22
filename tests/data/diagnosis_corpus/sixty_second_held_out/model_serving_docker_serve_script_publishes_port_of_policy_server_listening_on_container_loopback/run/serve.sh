#!/bin/bash
# serve.sh: the model server in a container (port 53159 on the node), as on the GPU nodes
docker run -d --rm --name policy-53159 -p 127.0.0.1:53159:8000 -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h62/.venv:/work/wt-h62/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h62:/work/wt-h62:ro -v /tmp/ho-model_serving_docker-hkb9sy9a/checkpoints:/tmp/ho-model_serving_docker-hkb9sy9a/checkpoints:ro -e PYTHONPATH=/work/wt-h62 \
  gym-pipeline/base:bookworm \
  /work/wt-h62/.venv/bin/python -m gym_pipeline.cli serve-policy --checkpoint /tmp/ho-model_serving_docker-hkb9sy9a/checkpoints/step_0200 --port 8000 --latency-ms 20
