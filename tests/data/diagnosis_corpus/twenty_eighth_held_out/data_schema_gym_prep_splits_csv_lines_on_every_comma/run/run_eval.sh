#!/bin/bash
# weekly eval
cd /work/wt-h28/tests/data/diagnosis_corpus/held_out/data_schema_gym_prep_splits_csv_lines_on_every_comma/run
python3 prep_data.py questions.csv tasks.jsonl
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=53145 ++uv_venv_dir=/tmp/ho-data_schema_gym_prep-y4p18s9m/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
