#!/bin/bash
# weekly eval
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_records_clock_sync_with_timedatectl_on_node_without_systemd/run
echo '== weekly eval'
# record whether the node's clock is NTP-synchronised (timings in the report depend on it)
timedatectl show -p NTPSynchronized || echo 'clock sync status unknown, going on'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=48521 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-q6t8q_bo/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
