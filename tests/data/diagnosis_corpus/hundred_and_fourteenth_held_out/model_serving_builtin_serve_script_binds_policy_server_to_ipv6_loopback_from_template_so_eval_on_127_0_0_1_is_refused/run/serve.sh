#!/bin/bash
# serve.sh: start the policy server for the eval (from the serving team's launcher template)
cd /work/h114/tests/data/diagnosis_corpus/hundred_and_fourteenth_held_out/model_serving_builtin_serve_script_binds_policy_server_to_ipv6_loopback_from_template_so_eval_on_127_0_0_1_is_refused/run
HOST=::1          # the template's bind address (the inference cluster's nodes are IPv6-only)
PORT=60799
nohup /work/h114/.venv/bin/gym-pipeline serve-policy --host $HOST --port $PORT --ready-file /work/h114/tests/data/diagnosis_corpus/hundred_and_fourteenth_held_out/model_serving_builtin_serve_script_binds_policy_server_to_ipv6_loopback_from_template_so_eval_on_127_0_0_1_is_refused/run/logs/policy_ready \
  --checkpoint ckpts/step_0200 --latency-ms 20 >> logs/model_server.log 2>&1 &
for i in $(seq 30); do [ -s logs/policy_ready ] && break; sleep 1; done
echo "policy server started ($(cat logs/policy_ready 2>/dev/null))"
echo "http://127.0.0.1:$PORT/v1" > model_url.txt
