#!/bin/bash
# weekly eval of the answer sheet
cd /work/wt-h76/tests/data/diagnosis_corpus/seventy_sixth_held_out/data_schema_gym_answer_sheet_lists_accepted_alternatives_with_pipes_and_prep_copies_them_into_the_label/run
/work/wt-h76/.venv/bin/python prep.py
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=52093 ++uv_venv_dir=/tmp/ho-data_schema_gym_answ-klo5lpt4/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
