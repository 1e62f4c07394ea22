#!/bin/bash
# weekly eval: serve the checkpoint, wait until it answers, evaluate
cd /work/wt-h47/tests/data/diagnosis_corpus/held_out/model_serving_builtin_readiness_loop_curls_without_fail_flag_so_loading_servers_503_counts_as_up/run
echo '== weekly eval'
/work/wt-h47/.venv/bin/gym-pipeline serve-policy --port 44887 --checkpoint /tmp/ho-model_serving_builti-dfk3iuww/checkpoints/step_0200 --latency-ms 20 --slow-start-s 120 > logs/model_server.log 2>&1 &
SERVER=$!
# wait for the model server (vLLM takes a while to load the weights)
until curl -s http://127.0.0.1:44887/v1/models > /dev/null; do sleep 1; done
echo "$(date +%T) model server up"
/work/wt-h47/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h47/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44887/v1 --env string_match --concurrency 4
/work/wt-h47/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl

kill $SERVER
