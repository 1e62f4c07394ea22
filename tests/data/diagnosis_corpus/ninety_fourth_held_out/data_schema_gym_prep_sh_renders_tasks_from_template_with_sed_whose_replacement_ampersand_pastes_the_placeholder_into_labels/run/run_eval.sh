#!/bin/bash
# weekly eval: render the tasks from the answer key, then gym eval run and profile
cd /work/h94/tests/data/diagnosis_corpus/ninety_fourth_held_out/data_schema_gym_prep_sh_renders_tasks_from_template_with_sed_whose_replacement_ampersand_pastes_the_placeholder_into_labels/run
bash prep.sh
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=47921 ++uv_venv_dir=/tmp/ho-data_schema_gym_prep-tgvp5p55/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
