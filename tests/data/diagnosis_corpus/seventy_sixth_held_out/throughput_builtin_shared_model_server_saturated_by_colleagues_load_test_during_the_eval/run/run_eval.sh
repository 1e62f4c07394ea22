#!/bin/bash
# weekly eval on the team's shared model server
cd /work/wt-h76/tests/data/diagnosis_corpus/seventy_sixth_held_out/throughput_builtin_shared_model_server_saturated_by_colleagues_load_test_during_the_eval/run
/work/wt-h76/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h76/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39253/v1 --env string_match --concurrency 4
/work/wt-h76/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
