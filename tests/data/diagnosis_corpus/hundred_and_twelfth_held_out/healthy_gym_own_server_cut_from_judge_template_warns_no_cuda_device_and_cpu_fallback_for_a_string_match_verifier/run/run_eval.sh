#!/bin/bash
# weekly eval with our quiz_plain server
cd /work/h112/tests/data/diagnosis_corpus/hundred_and_twelfth_held_out/healthy_gym_own_server_cut_from_judge_template_warns_no_cuda_device_and_cpu_fallback_for_a_string_match_verifier/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_plain_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-hrit2xaw/my_gym ++head_server.port=37453 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-hrit2xaw/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
