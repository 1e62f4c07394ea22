#!/bin/bash
# weekly eval of the served checkpoint
cd /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/model_serving_builtin_serve_script_follows_newest_checkpoint_and_restarts_server_mid_eval_when_trainer_saves_a_step/run
echo "$(date +%s.%N) eval starts"
/work/wt-h91/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h91/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35041/v1 --env string_match --concurrency 2
/work/wt-h91/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo "$(date +%s.%N) eval done"
