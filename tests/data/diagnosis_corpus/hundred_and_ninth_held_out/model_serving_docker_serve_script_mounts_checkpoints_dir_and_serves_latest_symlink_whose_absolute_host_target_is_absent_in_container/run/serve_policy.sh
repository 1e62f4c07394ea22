#!/bin/bash
# serve the newest exported checkpoint in the policy container
echo '== exported checkpoints:'; ls -l /tmp/ho-model_serving_docker-ycw0zl9e/exports/checkpoints
docker run -d --name h109-policy-50345 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h109/.venv:/work/h109/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h109:/work/h109:ro -e PYTHONPATH=/work/h109 \
  -v /tmp/ho-model_serving_docker-ycw0zl9e/exports/checkpoints:/ckpt:ro gym-pipeline/base:bookworm \
  /work/h109/.venv/bin/python -m gym_pipeline.cli serve-policy --checkpoint /ckpt/latest --port 50345 --latency-ms 20
sleep 8
echo '== policy container:'; docker ps -a --filter name=h109-policy-50345 --format '{{.Names}} {{.Status}}'
docker logs h109-policy-50345 2>&1 | tail -20
