#!/bin/bash
# weekly eval with our quiz_cache server
cd /work/h102/tests/data/diagnosis_corpus/hundred_and_second_held_out/healthy_gym_own_server_finds_no_redis_for_its_optional_verify_cache_and_prints_connection_refused_at_start/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_cache_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-c7bp2pe1/my_gym ++head_server.port=39473 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-c7bp2pe1/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
