#!/bin/bash
# weekly eval
cd /work/wt-h29/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_checks_pypi_for_newer_gym_release_from_offline_node/run
curl -sS --max-time 5 https://pypi.org/pypi/nemo-gym/json | python3 -c "import json, sys; print('latest nemo-gym on PyPI:', json.load(sys.stdin)['info']['version'])" || echo '(release check skipped)'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=42883 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-z6ck3ywc/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
