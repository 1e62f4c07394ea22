#!/bin/bash
# weekly eval
cd /work/wt-h47/tests/data/diagnosis_corpus/held_out/config_gym_run_script_picks_latest_dataset_version_with_ls_tail_so_v9_sorts_after_v10/run
echo '== weekly eval'
# the newest version of the tasks (the data team adds data/tasks_vN.jsonl every week)
DATA=$(ls data/tasks_v*.jsonl | tail -n 1)
echo "dataset: $DATA"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input $DATA --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=58547 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-028jtg8i/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
