#!/bin/bash
# weekly eval
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/throughput_builtin_serve_script_copies_hosted_api_queue_bound_of_two_waiting_requests/run
echo '== weekly eval'
/work/wt-h44/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 4 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h44/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36965/v1 --env string_match --concurrency 8
/work/wt-h44/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
