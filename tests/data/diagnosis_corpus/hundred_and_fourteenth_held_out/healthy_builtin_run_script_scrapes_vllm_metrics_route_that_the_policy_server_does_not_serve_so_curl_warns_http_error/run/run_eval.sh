#!/bin/bash
# weekly eval: dashboard scrape, materialize, collect, profile
cd /work/h114/tests/data/diagnosis_corpus/hundred_and_fourteenth_held_out/healthy_builtin_run_script_scrapes_vllm_metrics_route_that_the_policy_server_does_not_serve_so_curl_warns_http_error/run
MODEL_URL=http://127.0.0.1:42453/v1
# dashboard: scrape the serving engine's queue gauges (vLLM exposes /metrics; optional)
curl -sf --max-time 5 ${MODEL_URL%/v1}/metrics | grep '^vllm:num_requests' \
  || echo "WARNING: could not scrape vllm:num_requests_* from ${MODEL_URL%/v1}/metrics (HTTP error or no vLLM gauges)"
/work/h114/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h114/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/h114/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
