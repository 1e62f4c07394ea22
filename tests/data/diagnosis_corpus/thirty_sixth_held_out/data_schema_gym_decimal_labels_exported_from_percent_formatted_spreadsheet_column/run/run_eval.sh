#!/bin/bash
# weekly eval
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/data_schema_gym_decimal_labels_exported_from_percent_formatted_spreadsheet_column/run
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=41853 ++uv_venv_dir=/tmp/ho-data_schema_gym_deci-6w9ovmw5/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
