#!/bin/bash
# weekly eval
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_validates_tasks_with_check_jsonschema_not_installed_on_eval_node/run
echo '== weekly eval'
# validate the tasks against the team's schema when the validator is installed
check-jsonschema --schemafile tasks.schema.json tasks.jsonl || echo 'schema check skipped'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=34213 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-xqx0nwrg/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
