#!/bin/bash
# weekly eval of the counting quiz
cd /work/wt-h68/tests/data/diagnosis_corpus/sixty_eighth_held_out/data_schema_gym_counting_quiz_labels_taken_from_voice_answer_key_that_spells_numbers_as_words/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=39507 ++uv_venv_dir=/tmp/ho-data_schema_gym_coun-6a07tu71/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
