#!/bin/bash
# weekly eval; shared endpoint etiquette: ONE request at a time (see the team wiki)
cd /work/wt-h78/tests/data/diagnosis_corpus/seventy_eighth_held_out/healthy_gym_eval_at_concurrency_one_by_shared_endpoint_etiquette_is_slow_but_complete/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 1 ++route_failures_to_sidecar=true ++head_server.port=47943 ++uv_venv_dir=/tmp/ho-healthy_gym_eval_at_-4pdp09z0/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
