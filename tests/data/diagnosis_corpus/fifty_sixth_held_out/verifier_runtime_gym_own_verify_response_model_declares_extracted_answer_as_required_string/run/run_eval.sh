#!/bin/bash
# weekly eval
cd /work/wt-h56/tests/data/diagnosis_corpus/fifty_sixth_held_out/verifier_runtime_gym_own_verify_response_model_declares_extracted_answer_as_required_string/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --search-dir /tmp/ho-verifier_runtime_gym-b_xw1x1n/my_gym --agent answer_col_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=49023 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-b_xw1x1n/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
