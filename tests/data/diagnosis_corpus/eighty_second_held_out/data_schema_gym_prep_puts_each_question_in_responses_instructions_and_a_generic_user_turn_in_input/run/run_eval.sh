#!/bin/bash
# weekly quiz eval (tasks from the quiz sheet)
cd /work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/data_schema_gym_prep_puts_each_question_in_responses_instructions_and_a_generic_user_turn_in_input/run
/work/wt-h82/.venv/bin/python prep.py
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=38889 ++uv_venv_dir=/tmp/ho-data_schema_gym_prep-xa1916o3/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
