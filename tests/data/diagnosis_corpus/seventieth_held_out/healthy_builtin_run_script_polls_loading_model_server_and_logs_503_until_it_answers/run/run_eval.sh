#!/bin/bash
# weekly eval: wait for the freshly started model server, then evaluate
cd /work/wt-h70/tests/data/diagnosis_corpus/seventieth_held_out/healthy_builtin_run_script_polls_loading_model_server_and_logs_503_until_it_answers/run
MODEL_URL=http://127.0.0.1:35889/v1
for i in $(seq 60); do
  CODE=$(curl -s -o /dev/null -w '%{http_code}' $MODEL_URL/models)
  echo "$(date +%T) GET $MODEL_URL/models -> $CODE"
  [ "$CODE" = 200 ] && break
  sleep 1
done
/work/wt-h70/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h70/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/wt-h70/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
