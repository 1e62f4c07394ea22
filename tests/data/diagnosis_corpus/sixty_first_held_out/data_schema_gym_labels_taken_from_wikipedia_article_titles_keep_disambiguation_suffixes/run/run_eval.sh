#!/bin/bash
# weekly quiz eval
cd /work/wt-h61/tests/data/diagnosis_corpus/sixty_first_held_out/data_schema_gym_labels_taken_from_wikipedia_article_titles_keep_disambiguation_suffixes/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=60571 ++uv_venv_dir=/tmp/ho-data_schema_gym_labe-kq437lfe/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
