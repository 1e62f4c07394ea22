#!/bin/bash
# weekly eval
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/cache_resume_gym_sed_in_place_replaced_symlink_to_shared_dataset_with_a_frozen_copy/run
echo '== weekly eval'
ls -l tasks.jsonl
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=53425 ++uv_venv_dir=/tmp/ho-cache_resume_gym_sed-6itbh_9u/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
