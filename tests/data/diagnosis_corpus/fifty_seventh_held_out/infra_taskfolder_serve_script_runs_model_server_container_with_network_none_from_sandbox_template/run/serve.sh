#!/bin/bash
# serve.sh: the team's model server in a container (flags from the sandbox launcher template:
# no network for anything we run in a container)
docker run -d --rm --name team-policy-box_template-48173 --network none \
  -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h57/.venv:/work/wt-h57/.venv:ro -v /work/main/.venv:/work/main/.venv:ro \
  -v /work/wt-h57:/work/wt-h57:ro -v /tmp/ho-infra_taskfolder_ser-mcpcw0uh/checkpoints:/tmp/ho-infra_taskfolder_ser-mcpcw0uh/checkpoints:ro -v /tmp/ho-infra_taskfolder_ser-mcpcw0uh/ready:/ready \
  -e PYTHONPATH=/work/wt-h57 gym-pipeline/base:bookworm \
  /work/wt-h57/.venv/bin/python -m gym_pipeline.cli serve-policy --host 127.0.0.1 --port 38021 --ready-file /ready/url --checkpoint /tmp/ho-infra_taskfolder_ser-mcpcw0uh/checkpoints/step_0200 --latency-ms 30
for i in $(seq 60); do [ -s /tmp/ho-infra_taskfolder_ser-mcpcw0uh/ready/url ] && break; sleep 1; done
echo "model server ready at $(cat /tmp/ho-infra_taskfolder_ser-mcpcw0uh/ready/url)"
