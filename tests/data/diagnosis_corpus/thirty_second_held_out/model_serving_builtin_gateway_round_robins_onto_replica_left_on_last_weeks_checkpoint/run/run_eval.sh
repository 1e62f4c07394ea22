#!/bin/bash
# weekly eval
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/model_serving_builtin_gateway_round_robins_onto_replica_left_on_last_weeks_checkpoint/run
echo '== weekly eval (step_0200), through the gateway'
/work/wt-h32/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h32/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:47717/v1 --env string_match --concurrency 4
/work/wt-h32/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
