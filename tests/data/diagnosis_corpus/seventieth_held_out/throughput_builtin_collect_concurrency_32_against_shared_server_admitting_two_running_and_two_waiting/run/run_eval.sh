#!/bin/bash
# weekly eval, at full speed
cd /work/wt-h70/tests/data/diagnosis_corpus/seventieth_held_out/throughput_builtin_collect_concurrency_32_against_shared_server_admitting_two_running_and_two_waiting/run
/work/wt-h70/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h70/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34183/v1 --env string_match --concurrency 32
/work/wt-h70/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
