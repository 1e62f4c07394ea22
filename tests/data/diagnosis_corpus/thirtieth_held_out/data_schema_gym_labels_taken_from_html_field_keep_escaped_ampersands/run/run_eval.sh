#!/bin/bash
# weekly eval
cd /work/wt-h30/tests/data/diagnosis_corpus/held_out/data_schema_gym_labels_taken_from_html_field_keep_escaped_ampersands/run
python3 prep_data.py cms_export.json tasks.jsonl
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=49049 ++uv_venv_dir=/tmp/ho-data_schema_gym_labe-2cxz_obp/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
