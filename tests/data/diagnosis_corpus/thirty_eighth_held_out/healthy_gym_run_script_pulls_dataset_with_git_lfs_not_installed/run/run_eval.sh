#!/bin/bash
# weekly eval
cd /work/wt-h38/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_pulls_dataset_with_git_lfs_not_installed/run
git lfs pull || echo '(git-lfs not available: using the checked-out files)'
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=60571 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-40lfxpu_/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
