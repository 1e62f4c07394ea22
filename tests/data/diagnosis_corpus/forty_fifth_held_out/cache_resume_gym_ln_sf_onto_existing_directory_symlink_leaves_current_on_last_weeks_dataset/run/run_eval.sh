#!/bin/bash
# weekly eval
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/cache_resume_gym_ln_sf_onto_existing_directory_symlink_leaves_current_on_last_weeks_dataset/run
echo '== weekly eval'
# point current/ at this week's dataset version
ln -sf datasets/v2 current
ls -l current current/
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input current/tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=44615 ++uv_venv_dir=/tmp/ho-cache_resume_gym_ln_-mg134xk0/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
