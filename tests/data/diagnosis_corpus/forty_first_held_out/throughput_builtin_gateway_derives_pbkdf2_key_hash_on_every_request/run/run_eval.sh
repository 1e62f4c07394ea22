#!/bin/bash
# weekly eval
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/throughput_builtin_gateway_derives_pbkdf2_key_hash_on_every_request/run
echo '== weekly eval through the team gateway'
export EVAL_API_KEY=dummy
/work/wt-h41/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 4 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h41/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:52253/v1 --env string_match --api-key-env EVAL_API_KEY --concurrency 4
/work/wt-h41/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
