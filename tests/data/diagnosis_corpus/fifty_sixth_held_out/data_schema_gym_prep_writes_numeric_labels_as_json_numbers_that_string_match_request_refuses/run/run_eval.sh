#!/bin/bash
# weekly eval
cd /work/wt-h56/tests/data/diagnosis_corpus/fifty_sixth_held_out/data_schema_gym_prep_writes_numeric_labels_as_json_numbers_that_string_match_request_refuses/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve  --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=47367 ++uv_venv_dir=/tmp/ho-data_schema_gym_prep-s0y70xg7/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
