#!/bin/bash
# weekly quiz eval (alphabet positions merged from the curriculum sheet)
cd /work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/data_schema_gym_alphabet_position_labels_exported_from_spreadsheet_column_with_ordinal_format_carry_suffixes/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=34477 ++uv_venv_dir=/tmp/ho-data_schema_gym_alph-hz7sz8eh/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
