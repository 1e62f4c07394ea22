#!/bin/bash
# eval of the current checkpoint (stops last week's server first)
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_kills_pid_of_last_weeks_server/run
echo "== stopping last week's server"
kill $(cat old_server.pid)
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=49547 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-ysn6bdw2/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
