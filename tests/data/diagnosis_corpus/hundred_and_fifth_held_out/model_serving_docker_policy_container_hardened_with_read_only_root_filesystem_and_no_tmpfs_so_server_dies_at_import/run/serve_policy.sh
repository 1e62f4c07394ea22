#!/bin/bash
# serve the candidate checkpoint in a container (hardening flags from the team's container template)
docker run -d --name h105-policy-50497 --read-only --cap-drop ALL --security-opt no-new-privileges --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h105/.venv:/work/h105/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h105:/work/h105:ro \
  -v /tmp/ho-model_serving_docker-l5s9v8d3/checkpoints/step_0200:/tmp/ho-model_serving_docker-l5s9v8d3/checkpoints/step_0200:ro -e PYTHONPATH=/work/h105 gym-pipeline/base:bookworm \
  /work/h105/.venv/bin/python -m gym_pipeline.cli serve-policy --checkpoint /tmp/ho-model_serving_docker-l5s9v8d3/checkpoints/step_0200 --port 50497 --ready-file /tmp/policy.ready \
  --latency-ms 20
for i in $(seq 1 60); do
  state=$(docker inspect -f '{{.State.Status}}' h105-policy-50497)
  if [ "$state" = running ] && docker exec h105-policy-50497 test -s /tmp/policy.ready; then echo "policy ready"; break; fi
  if [ "$state" = exited ]; then echo "policy container exited"; break; fi
  sleep 1
done
echo "== serving container state: $state, exit code $(docker inspect -f '{{.State.ExitCode}}' h105-policy-50497)"
docker logs --tail 30 h105-policy-50497
