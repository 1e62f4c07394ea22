#!/bin/bash
# weekly eval against the latest checkpoint (serve.sh)
cd /work/wt-h74/tests/data/diagnosis_corpus/seventy_fourth_held_out/model_serving_builtin_serve_script_checkpoint_glob_one_level_too_shallow_after_trainer_nests_steps_in_run_folder/run
rm -f server.url
bash serve.sh server.url > logs/model_server.log 2>&1 &
for i in $(seq 15); do [ -s server.url ] && break; sleep 1; done
URL=$(cat server.url 2>/dev/null || echo http://127.0.0.1:8000/v1)
echo "model server: $URL"
cat logs/model_server.log
/work/wt-h74/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h74/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
/work/wt-h74/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
