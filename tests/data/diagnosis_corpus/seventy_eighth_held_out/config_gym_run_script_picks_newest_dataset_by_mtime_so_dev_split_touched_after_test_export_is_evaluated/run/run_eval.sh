#!/bin/bash
# weekly eval of this week's test split
cd /work/wt-h78/tests/data/diagnosis_corpus/seventy_eighth_held_out/config_gym_run_script_picks_newest_dataset_by_mtime_so_dev_split_touched_after_test_export_is_evaluated/run
DATA=$(ls -t data/*.jsonl | head -1)   # the newest export is this week's test split
echo "evaluating $DATA"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input $DATA --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=48139 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-bpfw7wgh/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
