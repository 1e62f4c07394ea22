#!/bin/bash
# weekly eval with our quiz_pinned server
cd /work/h106/tests/data/diagnosis_corpus/hundred_and_sixth_held_out/healthy_gym_own_server_warns_at_import_it_was_validated_against_nemo_gym_0_6_2_while_running_under_0_7_0/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_pinned_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-al12fn91/my_gym ++head_server.port=51619 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-al12fn91/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
