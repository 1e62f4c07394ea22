#!/bin/bash
# weekly eval
cd /work/wt-h29/tests/data/diagnosis_corpus/held_out/cache_resume_gym_dataset_sync_script_compares_sizes_keeps_stale_labels/run
python3 sync_data.py shared/tasks.jsonl tasks.jsonl
echo "== weekly eval: $(wc -l < tasks.jsonl) tasks"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=46623 ++uv_venv_dir=/tmp/ho-cache_resume_gym_dat-5x052nwq/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
