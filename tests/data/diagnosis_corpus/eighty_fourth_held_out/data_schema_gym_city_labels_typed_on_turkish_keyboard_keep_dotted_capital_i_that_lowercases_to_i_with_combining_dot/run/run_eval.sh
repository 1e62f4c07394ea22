#!/bin/bash
# weekly geography quiz eval (labels from the Istanbul office)
cd /work/wt-h84/tests/data/diagnosis_corpus/eighty_fourth_held_out/data_schema_gym_city_labels_typed_on_turkish_keyboard_keep_dotted_capital_i_that_lowercases_to_i_with_combining_dot/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=39483 ++uv_venv_dir=/tmp/ho-data_schema_gym_city-cdmoru78/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
