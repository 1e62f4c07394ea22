#!/bin/bash
# weekly eval, through the logging proxy (log_proxy.py)
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/model_serving_builtin_logging_proxy_cuts_completion_text_to_log_preview/run
MODEL_URL=http://127.0.0.1:45589/v1
/work/wt-h25/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h25/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/wt-h25/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
