#!/bin/bash
# weekly eval: labels.csv -> tasks.jsonl, then gym eval run and profile
cd /work/wt-h84/tests/data/diagnosis_corpus/eighty_fourth_held_out/healthy_gym_prep_memoised_with_joblib_on_labels_path_and_content_digest_reparses_the_fixed_labels_export/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/python prep.py
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=50881 ++uv_venv_dir=/tmp/ho-healthy_gym_prep_mem-v6bze2t8/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
