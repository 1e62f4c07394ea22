#!/bin/bash
# weekly eval
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_sends_desktop_notice_with_notify_send_not_installed_on_node/run
echo '== weekly eval'
# a desktop notice when the eval starts (when run from the workstation)
notify-send 'weekly eval started' || echo 'no desktop notifications here'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=53301 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-7jyrt5m8/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
