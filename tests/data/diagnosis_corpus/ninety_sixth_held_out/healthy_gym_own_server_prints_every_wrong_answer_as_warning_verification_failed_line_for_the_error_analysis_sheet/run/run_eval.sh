#!/bin/bash
# weekly eval with our quiz_review server
cd /work/h96/tests/data/diagnosis_corpus/ninety_sixth_held_out/healthy_gym_own_server_prints_every_wrong_answer_as_warning_verification_failed_line_for_the_error_analysis_sheet/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_review_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-c1twp5ac/my_gym ++head_server.port=44621 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-c1twp5ac/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
