#!/bin/bash
# weekly eval
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/data_schema_gym_labels_csv_saved_with_byte_order_mark_renames_first_column/run
echo '== weekly eval'
wc -l tasks.jsonl
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=42211 ++uv_venv_dir=/tmp/ho-data_schema_gym_labe-sl6u4gxq/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
