#!/bin/bash
# weekly eval with our cached_match server
cd /work/wt-h59/tests/data/diagnosis_corpus/fifty_ninth_held_out/cache_resume_gym_own_server_verdict_cache_keyed_without_label_keeps_old_verdicts_after_labels_fixed/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent cached_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-cache_resume_gym_own-wbe1jm6y/my_gym ++head_server.port=42493 ++uv_venv_dir=/tmp/ho-cache_resume_gym_own-wbe1jm6y/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
