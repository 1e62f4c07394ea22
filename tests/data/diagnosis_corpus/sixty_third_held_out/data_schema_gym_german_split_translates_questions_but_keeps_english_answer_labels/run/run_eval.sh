#!/bin/bash
# monthly eval of the German split
cd /work/wt-h63/tests/data/diagnosis_corpus/sixty_third_held_out/data_schema_gym_german_split_translates_questions_but_keeps_english_answer_labels/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks_de.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=39805 ++uv_venv_dir=/tmp/ho-data_schema_gym_germ-km9gq4gy/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
