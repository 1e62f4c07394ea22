#!/bin/bash
# run_eval.sh: start the model server for this week's checkpoint, find its port, run the weekly eval
cd /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/model_serving_builtin_run_script_finds_server_port_with_pgrep_head_which_picks_last_weeks_older_server/run
CKPTS=/tmp/ho-model_serving_builti-x_u9pl65/checkpoints
/work/wt-h60/.venv/bin/gym-pipeline serve-policy --checkpoint $CKPTS/step_0200 --port 0 --latency-ms 20 > logs/model_server.log 2>&1 &
SERVER_PID=$!
sleep 5
# the server picks a free port: find it from the server's process
PID=$(pgrep -f "serve-policy --checkpoint $CKPTS" | head -1)
PORT=$(ss -ltnp | grep "pid=$PID," | awk '{print $4}' | sed 's/.*://' | head -1)
URL=http://127.0.0.1:$PORT/v1
echo "model server (pid $PID) at $URL"
/work/wt-h60/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h60/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
/work/wt-h60/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
kill $SERVER_PID   # stop the model server
