#!/bin/bash
# weekly eval
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/config_gym_run_script_backgrounds_the_eval_with_ampersand_so_profile_runs_before_it_finishes/run
echo '== weekly eval'
# the eval in the background, so the servers' logs can be followed meanwhile
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 2 ++route_failures_to_sidecar=true ++head_server.port=36365 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-rwyj0rwc/server_venvs ++skip_venv_if_present=true > logs/eval_run.log 2>&1 &
echo "eval started (pid $!)"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
