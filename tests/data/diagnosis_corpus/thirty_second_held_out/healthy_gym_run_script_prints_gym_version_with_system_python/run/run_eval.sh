#!/bin/bash
# weekly eval
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_prints_gym_version_with_system_python/run
/usr/bin/python3 -c 'import nemo_gym; print("NeMo Gym", nemo_gym.__version__)' || echo '(gym version unknown)'
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=44729 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-qig3c9ip/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
