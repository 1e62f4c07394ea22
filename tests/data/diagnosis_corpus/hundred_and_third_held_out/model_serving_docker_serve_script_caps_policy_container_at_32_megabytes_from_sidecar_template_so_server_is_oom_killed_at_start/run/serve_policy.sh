#!/bin/bash
# serve the candidate checkpoint in a container (resource flags from the team's sidecar template)
docker run -d --name h103-policy-42993 --memory 32m --memory-swap 32m --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h103/.venv:/work/h103/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h103:/work/h103:ro -v /tmp/ho-model_serving_docker-qcafqvrr/checkpoints/step_0200:/tmp/ho-model_serving_docker-qcafqvrr/checkpoints/step_0200:ro \
  -e PYTHONPATH=/work/h103 gym-pipeline/base:bookworm \
  /work/h103/.venv/bin/python -m gym_pipeline.cli serve-policy --checkpoint /tmp/ho-model_serving_docker-qcafqvrr/checkpoints/step_0200 --port 42993 --ready-file /tmp/policy.ready \
  --latency-ms 20
for i in $(seq 1 60); do
  state=$(docker inspect -f '{{.State.Status}}' h103-policy-42993)
  if [ "$state" = running ] && docker exec h103-policy-42993 test -s /tmp/policy.ready; then echo "policy ready"; break; fi
  if [ "$state" = exited ]; then echo "policy container exited"; break; fi
  sleep 1
done
echo "== serving container state: $state, exit code $(docker inspect -f '{{.State.ExitCode}}' h103-policy-42993), \
OOMKilled $(docker inspect -f '{{.State.OOMKilled}}' h103-policy-42993)"
docker logs --tail 30 h103-policy-42993
