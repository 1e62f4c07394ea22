#!/bin/bash
# eval of the current checkpoint; OLD_URL is last week's server, for comparison
cd /work/wt-h23/tests/data/diagnosis_corpus/held_out/healthy_gym_preflight_probe_of_decommissioned_server/run
OLD_URL=http://127.0.0.1:60229/v1
MODEL_URL=http://127.0.0.1:39249/v1
echo "== last week's server"
curl -sS --max-time 5 $OLD_URL/models || echo "(no answer)"
echo "== current server"
curl -sS --max-time 5 $MODEL_URL/models; echo
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=48911 ++uv_venv_dir=/tmp/ho-healthy_gym_prefligh-i2yusd_o/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
