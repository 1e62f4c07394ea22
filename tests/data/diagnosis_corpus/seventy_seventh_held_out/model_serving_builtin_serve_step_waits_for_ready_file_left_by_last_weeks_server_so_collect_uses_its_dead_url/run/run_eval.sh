#!/bin/bash
# weekly eval: serve the checkpoint, then evaluate it
cd /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/model_serving_builtin_serve_step_waits_for_ready_file_left_by_last_weeks_server_so_collect_uses_its_dead_url/run
# start this week's checkpoint and wait for the server to say where it listens
/work/wt-h77/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file policy_url.txt --checkpoint /tmp/ho-model_serving_builti-lup93i_9/checkpoints/step_0200 --latency-ms 20 \
  >> logs/model_server.log 2>&1 &
SERVER=$!
until [ -s policy_url.txt ]; do sleep 0.5; done
URL=$(cat policy_url.txt)
echo "policy server at $URL"
/work/wt-h77/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h77/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "$URL" \
  --env string_match --concurrency 4
/work/wt-h77/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
kill -9 $SERVER   # it can hang for minutes draining on SIGTERM
