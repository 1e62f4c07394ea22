#!/bin/bash
# serve.sh [serve-policy options]: the team's model server; serves the baseline unless --checkpoint is given
BASELINE=/tmp/ho-model_serving_builti-vn1ckptr/checkpoints/step_0100
exec /work/wt-h45/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /work/wt-h45/tests/data/diagnosis_corpus/held_out/model_serving_builtin_serve_wrapper_adds_baseline_checkpoint_after_users_own_so_server_refuses_two/run/server_url.txt --latency-ms 30 "$@" --checkpoint $BASELINE
