#!/bin/bash
# weekly eval
cd /work/wt-h33/tests/data/diagnosis_corpus/held_out/data_schema_gym_prep_slices_off_newline_of_last_label_that_has_none/run
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=52999 ++uv_venv_dir=/tmp/ho-data_schema_gym_prep-o83kk982/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
