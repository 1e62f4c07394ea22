#!/bin/bash
# weekly eval
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/config_gym_max_rollout_attempts_of_one_left_in_debug_env_so_resume_never_retries_outage_failures/run
source debug.env
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 2 ++route_failures_to_sidecar=true ++head_server.port=55993 ++uv_venv_dir=/tmp/ho-config_gym_max_rollo-o3m6tf5f/server_venvs ++skip_venv_if_present=true ++resume_from_cache=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
