#!/bin/bash
# weekly eval
cd /work/wt-h38/tests/data/diagnosis_corpus/held_out/data_schema_gym_labels_copied_from_wiki_table_keep_citation_markers/run
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=57173 ++uv_venv_dir=/tmp/ho-data_schema_gym_labe-2l_ghm1c/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
