#!/bin/bash
# weekly eval
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/throughput_builtin_batch_eval_sent_with_interactive_key_limited_to_one_request_in_flight/run
export EVAL_API_KEY=sk-personal-4f2a91
echo '== weekly eval, through the gateway'
/work/wt-h36/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h36/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:49225/v1 --env string_match --concurrency 8 --api-key-env EVAL_API_KEY
/work/wt-h36/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
