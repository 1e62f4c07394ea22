#!/bin/bash
# eval with provenance
cd /tmp/ho-healthy_gym_run_scri-e0d_9l31/home/evaluser/trivia_eval
echo "code version: $(git rev-parse --short HEAD)"
git status --short
cd /work/wt-h22/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_records_git_commit_outside_repository/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=50593 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-e0d_9l31/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
