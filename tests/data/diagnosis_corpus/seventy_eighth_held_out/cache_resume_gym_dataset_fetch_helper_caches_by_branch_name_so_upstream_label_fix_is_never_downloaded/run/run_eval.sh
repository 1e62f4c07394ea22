#!/bin/bash
# weekly eval of capitals-qa@main (labels fixed by the reviewers on Tuesday)
cd /work/wt-h78/tests/data/diagnosis_corpus/seventy_eighth_held_out/cache_resume_gym_dataset_fetch_helper_caches_by_branch_name_so_upstream_label_fix_is_never_downloaded/run
/work/wt-h78/.venv/bin/python fetch.py capitals-qa main
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=44153 ++uv_venv_dir=/tmp/ho-cache_resume_gym_dat-nutt15z7/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
