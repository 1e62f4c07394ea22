#!/bin/bash
# weekly eval
cd /work/wt-h53/tests/data/diagnosis_corpus/fifty_third_held_out/healthy_gym_admission_limits_copied_onto_legacy_relay_environment_server_have_no_effect/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=53691 ++uv_venv_dir=/tmp/ho-healthy_gym_admissio-e0zw_pm0/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
