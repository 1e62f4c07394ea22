#!/bin/bash
# weekly eval of step_0200: start its server, materialize, collect, profile
cd /work/h114/tests/data/diagnosis_corpus/hundred_and_fourteenth_held_out/model_serving_builtin_serve_script_binds_policy_server_to_ipv6_loopback_from_template_so_eval_on_127_0_0_1_is_refused/run
bash serve.sh
MODEL_URL=$(cat model_url.txt)
echo "evaluating $MODEL_URL"
/work/h114/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h114/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/h114/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
