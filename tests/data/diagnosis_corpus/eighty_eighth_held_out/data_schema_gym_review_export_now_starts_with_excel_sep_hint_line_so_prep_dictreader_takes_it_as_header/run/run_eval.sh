#!/bin/bash
# weekly eval: prep the review export, then gym eval run and profile
cd /work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/data_schema_gym_review_export_now_starts_with_excel_sep_hint_line_so_prep_dictreader_takes_it_as_header/run
/work/wt-h88/.venv/bin/python prep.py
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=34497 ++uv_venv_dir=/tmp/ho-data_schema_gym_revi-63pzhvn1/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
