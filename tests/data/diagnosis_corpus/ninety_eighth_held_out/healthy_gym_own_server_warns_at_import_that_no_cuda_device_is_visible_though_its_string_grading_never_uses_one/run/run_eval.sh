#!/bin/bash
# weekly eval with our quiz_cpu server
cd /work/h98/tests/data/diagnosis_corpus/ninety_eighth_held_out/healthy_gym_own_server_warns_at_import_that_no_cuda_device_is_visible_though_its_string_grading_never_uses_one/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_cpu_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-_jyq1v1x/my_gym ++head_server.port=57237 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-_jyq1v1x/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
