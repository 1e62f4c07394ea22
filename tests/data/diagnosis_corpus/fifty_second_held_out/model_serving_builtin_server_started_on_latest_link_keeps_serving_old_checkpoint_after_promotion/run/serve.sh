#!/bin/bash
# serve.sh: the team's model server for the weekly eval
# serves whatever training last promoted
exec /work/wt-h52/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /tmp/ho-model_serving_builti-k7su7q92/serve-ready-0 --checkpoint /tmp/ho-model_serving_builti-k7su7q92/checkpoints/latest --latency-ms 30
