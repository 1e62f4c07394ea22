#!/bin/bash
# weekly eval
cd /work/wt-h48/tests/data/diagnosis_corpus/held_out/data_schema_gym_labels_exported_from_url_slug_column_join_multiword_answers_with_underscores/run
echo '== weekly eval'
head -c 300 tasks.jsonl; echo
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=53563 ++uv_venv_dir=/tmp/ho-data_schema_gym_labe-5xwb3k3c/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
