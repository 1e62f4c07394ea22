#!/bin/bash
# weekly eval against the server of serve.sh
cd /work/h92/tests/data/diagnosis_corpus/ninety_second_held_out/model_serving_gym_serve_script_copied_from_load_test_runbook_keeps_fault_injection_flags_so_model_calls_fail/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=47279 ++uv_venv_dir=/tmp/ho-model_serving_gym_se-n9_wf91f/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
