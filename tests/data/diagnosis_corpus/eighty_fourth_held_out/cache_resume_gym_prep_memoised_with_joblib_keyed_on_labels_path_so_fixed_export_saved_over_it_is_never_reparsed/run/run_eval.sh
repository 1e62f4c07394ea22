#!/bin/bash
# weekly eval: labels.csv -> tasks.jsonl, then gym eval run and profile
cd /work/wt-h84/tests/data/diagnosis_corpus/eighty_fourth_held_out/cache_resume_gym_prep_memoised_with_joblib_keyed_on_labels_path_so_fixed_export_saved_over_it_is_never_reparsed/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/python prep.py
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=56725 ++uv_venv_dir=/tmp/ho-cache_resume_gym_pre-bht8c_66/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
