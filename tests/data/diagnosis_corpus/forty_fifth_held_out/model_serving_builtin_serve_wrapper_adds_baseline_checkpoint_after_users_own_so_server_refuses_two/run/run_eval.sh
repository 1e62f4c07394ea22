#!/bin/bash
# weekly eval
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/model_serving_builtin_serve_wrapper_adds_baseline_checkpoint_after_users_own_so_server_refuses_two/run
echo '== weekly eval of step_0200'
MODEL_URL=$(cat server_url.txt 2>/dev/null)
echo "model server: ${MODEL_URL:=http://127.0.0.1:8000/v1}"
/work/wt-h45/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h45/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/wt-h45/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
