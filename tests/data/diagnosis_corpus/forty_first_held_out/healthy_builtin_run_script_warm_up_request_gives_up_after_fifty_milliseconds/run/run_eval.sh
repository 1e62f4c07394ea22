#!/bin/bash
# weekly eval
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_warm_up_request_gives_up_after_fifty_milliseconds/run
echo '== warm-up request (loads the weights; we do not wait for it)'
curl -sS --max-time 0.05 -H 'Content-Type: application/json' -d '{"model": "sim-policy", "messages": [{"role": "user", "content": "ping"}], "max_tokens": 4}' http://127.0.0.1:40691/v1/chat/completions || echo 'warm-up sent'
echo '== weekly eval'
/work/wt-h41/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h41/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40691/v1 --env string_match --concurrency 4
/work/wt-h41/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
