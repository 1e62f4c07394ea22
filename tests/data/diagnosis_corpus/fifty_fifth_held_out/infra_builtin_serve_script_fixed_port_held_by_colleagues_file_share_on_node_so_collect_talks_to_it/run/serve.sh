#!/bin/bash
# serve.sh: the team's model server, on the port the dashboards expect
exec /work/wt-h55/.venv/bin/gym-pipeline serve-policy --host 127.0.0.1 --port 8765 --checkpoint /tmp/ho-infra_builtin_serve_-1xnfzxyw/checkpoints/step_0200 --latency-ms 20
