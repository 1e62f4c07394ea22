#!/bin/bash
# weekly eval against the best checkpoint
cd /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/model_serving_builtin_serve_script_picks_best_checkpoint_with_max_of_validation_loss_so_the_worst_step_is_served/run
/work/wt-h73/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h73/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38035/v1 --env string_match --concurrency 4
/work/wt-h73/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
