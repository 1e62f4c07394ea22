#!/bin/bash
# weekly eval
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/model_serving_builtin_serve_wrapper_restarts_on_newest_checkpoint_mid_eval/run
echo '== eval of step_0100'
/work/wt-h41/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h41/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38341/v1 --env string_match --concurrency 2
/work/wt-h41/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
