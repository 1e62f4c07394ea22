#!/bin/bash
# weekly eval; settings rendered from eval.conf.tpl
cd /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/config_builtin_run_script_renders_settings_with_envsubst_but_never_exports_policy_port/run
POLICY_PORT=42889   # this week's policy server
envsubst < eval.conf.tpl > eval.conf
source ./eval.conf
echo "model: $MODEL_URL"
/work/wt-h77/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h77/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "$MODEL_URL" --env string_match --concurrency $CONCURRENCY
/work/wt-h77/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
