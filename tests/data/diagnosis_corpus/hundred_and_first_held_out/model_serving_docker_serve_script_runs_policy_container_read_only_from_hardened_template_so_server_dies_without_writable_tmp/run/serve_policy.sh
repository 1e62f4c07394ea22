#!/bin/bash
# serve the candidate checkpoint in the team's serving container (flags from the hardened serving template)
docker run -d --name h101-policy-46289 --read-only --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h101/.venv:/work/h101/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h101:/work/h101:ro -v /tmp/ho-model_serving_docker-_mvnik4w/checkpoints/step_0200:/tmp/ho-model_serving_docker-_mvnik4w/checkpoints/step_0200:ro -e PYTHONPATH=/work/h101 \
  gym-pipeline/base:bookworm \
  /work/h101/.venv/bin/python -m gym_pipeline.cli serve-policy --checkpoint /tmp/ho-model_serving_docker-_mvnik4w/checkpoints/step_0200 --port 46289 --ready-file /tmp/policy.ready \
  --latency-ms 20
for i in $(seq 1 60); do
  state=$(docker inspect -f '{{.State.Status}}' h101-policy-46289)
  if [ "$state" = running ] && docker exec h101-policy-46289 test -s /tmp/policy.ready; then echo "policy ready"; break; fi
  if [ "$state" = exited ]; then echo "policy container exited"; break; fi
  sleep 1
done
echo "== serving container state: $state"
docker logs --tail 30 h101-policy-46289
