#!/bin/bash
# serve.sh: the team's model server for the weekly eval
# shared-node etiquette: background services at lower priority
renice -n 5 -p $$ >/dev/null
exec /work/wt-h52/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /tmp/ho-healthy_builtin_serv-f_pjx6wa/serve-ready-0 --checkpoint /tmp/ho-healthy_builtin_serv-f_pjx6wa/checkpoints/step_0200 --latency-ms 30
