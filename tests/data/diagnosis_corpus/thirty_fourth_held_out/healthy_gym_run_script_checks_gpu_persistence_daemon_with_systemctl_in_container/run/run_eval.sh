#!/bin/bash
# weekly eval
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_checks_gpu_persistence_daemon_with_systemctl_in_container/run
systemctl is-active nvidia-persistenced || echo '(no persistence daemon)'
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=59989 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-97q9_5xw/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
