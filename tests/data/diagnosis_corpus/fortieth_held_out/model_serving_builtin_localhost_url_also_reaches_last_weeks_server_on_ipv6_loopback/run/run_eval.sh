#!/bin/bash
# weekly eval
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/model_serving_builtin_localhost_url_also_reaches_last_weeks_server_on_ipv6_loopback/run
echo '== weekly eval'
/work/wt-h40/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h40/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://localhost:47199/v1 --env string_match --concurrency 4
/work/wt-h40/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
