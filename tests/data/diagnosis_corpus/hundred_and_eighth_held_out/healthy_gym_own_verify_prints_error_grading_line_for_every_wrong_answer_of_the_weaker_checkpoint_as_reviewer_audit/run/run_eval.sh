#!/bin/bash
# weekly eval of the early checkpoint with our quiz_audit server
cd /work/h108/tests/data/diagnosis_corpus/hundred_and_eighth_held_out/healthy_gym_own_verify_prints_error_grading_line_for_every_wrong_answer_of_the_weaker_checkpoint_as_reviewer_audit/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_audit_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_veri-9c9jmy3f/my_gym ++head_server.port=33097 ++uv_venv_dir=/tmp/ho-healthy_gym_own_veri-9c9jmy3f/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
