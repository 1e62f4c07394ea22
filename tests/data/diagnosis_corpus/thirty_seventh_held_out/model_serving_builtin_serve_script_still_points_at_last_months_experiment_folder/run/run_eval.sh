#!/bin/bash
# weekly eval
cd /work/wt-h37/tests/data/diagnosis_corpus/held_out/model_serving_builtin_serve_script_still_points_at_last_months_experiment_folder/run
echo '== weekly eval of exp-0402-rl (newest checkpoint)'
/work/wt-h37/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h37/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38647/v1 --env string_match --concurrency 4
/work/wt-h37/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
