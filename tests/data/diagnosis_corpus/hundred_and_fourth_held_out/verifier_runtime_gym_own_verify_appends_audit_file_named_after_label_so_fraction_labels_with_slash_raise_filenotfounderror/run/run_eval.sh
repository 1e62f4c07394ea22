#!/bin/bash
# weekly eval with our quiz_audit server
cd /work/h104/tests/data/diagnosis_corpus/hundred_and_fourth_held_out/verifier_runtime_gym_own_verify_appends_audit_file_named_after_label_so_fraction_labels_with_slash_raise_filenotfounderror/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_audit_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-gbo2uv3s/my_gym ++head_server.port=37445 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-gbo2uv3s/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
