#!/bin/bash
# weekly eval with our quiz_sets server
cd /work/h94/tests/data/diagnosis_corpus/ninety_fourth_held_out/verifier_runtime_gym_own_verify_builds_grading_note_with_str_format_over_text_holding_the_answer_so_set_answers_with_braces_raise/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_sets_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-3akcr5us/my_gym ++head_server.port=44723 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-3akcr5us/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
