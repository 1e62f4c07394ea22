#!/bin/bash
# weekly eval
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/data_schema_gym_labels_from_markdown_table_keep_reviewers_bold_markers/run
python3 md_to_jsonl.py review_table.md tasks.jsonl
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=38301 ++uv_venv_dir=/tmp/ho-data_schema_gym_labe-j40vlh3w/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
