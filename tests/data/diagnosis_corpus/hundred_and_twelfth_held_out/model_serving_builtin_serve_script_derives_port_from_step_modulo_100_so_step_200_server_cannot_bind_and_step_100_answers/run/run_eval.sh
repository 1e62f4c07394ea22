#!/bin/bash
# weekly eval of the newest checkpoint: start its server, materialize, collect, profile
cd /work/h112/tests/data/diagnosis_corpus/hundred_and_twelfth_held_out/model_serving_builtin_serve_script_derives_port_from_step_modulo_100_so_step_200_server_cannot_bind_and_step_100_answers/run
bash serve.sh 200
MODEL_URL=$(cat model_url.txt)
echo "evaluating $MODEL_URL"
/work/h112/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h112/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/h112/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
