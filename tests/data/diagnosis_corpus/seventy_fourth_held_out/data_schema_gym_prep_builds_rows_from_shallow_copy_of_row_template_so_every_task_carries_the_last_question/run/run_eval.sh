#!/bin/bash
# weekly eval of the reviewed sheet
cd /work/wt-h74/tests/data/diagnosis_corpus/seventy_fourth_held_out/data_schema_gym_prep_builds_rows_from_shallow_copy_of_row_template_so_every_task_carries_the_last_question/run
/work/wt-h74/.venv/bin/python prep.py
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=56089 ++uv_venv_dir=/tmp/ho-data_schema_gym_prep-34p02jpl/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
