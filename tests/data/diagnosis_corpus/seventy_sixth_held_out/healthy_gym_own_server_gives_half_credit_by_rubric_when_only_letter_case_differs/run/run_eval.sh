#!/bin/bash
# weekly names quiz with our name_match server
cd /work/wt-h76/tests/data/diagnosis_corpus/seventy_sixth_held_out/healthy_gym_own_server_gives_half_credit_by_rubric_when_only_letter_case_differs/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent name_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-sk42ikkl/my_gym ++head_server.port=36403 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-sk42ikkl/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
