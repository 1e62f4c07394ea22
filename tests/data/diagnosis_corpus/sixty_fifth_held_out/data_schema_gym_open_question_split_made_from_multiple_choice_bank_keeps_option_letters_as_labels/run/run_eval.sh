#!/bin/bash
# monthly eval of the open-question split
cd /work/wt-h65/tests/data/diagnosis_corpus/sixty_fifth_held_out/data_schema_gym_open_question_split_made_from_multiple_choice_bank_keeps_option_letters_as_labels/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=46851 ++uv_venv_dir=/tmp/ho-data_schema_gym_open-xvoxsh8l/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
