#!/bin/bash
# weekly eval of the reviewers' answer sheet
cd /work/wt-h78/tests/data/diagnosis_corpus/seventy_eighth_held_out/data_schema_gym_answer_codes_exported_wrapped_in_excel_text_formula_to_keep_their_leading_zeros/run
/work/wt-h78/.venv/bin/python prep.py
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=44929 ++uv_venv_dir=/tmp/ho-data_schema_gym_answ-9fb_5olt/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
