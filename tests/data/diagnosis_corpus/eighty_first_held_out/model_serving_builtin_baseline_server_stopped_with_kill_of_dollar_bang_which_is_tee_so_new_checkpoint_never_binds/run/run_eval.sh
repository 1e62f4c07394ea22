#!/bin/bash
# weekly comparison: baseline checkpoint, then the new one
cd /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/model_serving_builtin_baseline_server_stopped_with_kill_of_dollar_bang_which_is_tee_so_new_checkpoint_never_binds/run
# compare the new checkpoint with the baseline, both served on the eval port 42051
PORT=42051
URL=http://127.0.0.1:$PORT/v1
wait_server() { for i in $(seq 1 40); do curl -sf $URL/models > /dev/null && return 0; sleep 0.5; done; return 1; }
/work/wt-h81/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl

echo "== baseline: step_0100"
/work/wt-h81/.venv/bin/gym-pipeline serve-policy --port $PORT --checkpoint /tmp/ho-model_serving_builti-5mxzijs8/checkpoints/step_0100 --latency-ms 20 2>&1 | tee -a logs/model_server_baseline.log &
SERVER=$!
wait_server
/work/wt-h81/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts_baseline.jsonl --model-url $URL \
  --env string_match --concurrency 4
kill $SERVER   # stop the baseline server
sleep 1

echo "== new checkpoint: step_0200"
/work/wt-h81/.venv/bin/gym-pipeline serve-policy --port $PORT --checkpoint /tmp/ho-model_serving_builti-5mxzijs8/checkpoints/step_0200 --latency-ms 20 2>&1 | tee -a logs/model_server.log &
SERVER=$!
wait_server
/work/wt-h81/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL \
  --env string_match --concurrency 4
/work/wt-h81/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
kill $SERVER
