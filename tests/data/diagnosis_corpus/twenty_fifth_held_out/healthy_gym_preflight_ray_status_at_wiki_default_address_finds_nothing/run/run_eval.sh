#!/bin/bash
# weekly eval (checks the Ray cluster first, as the wiki says)
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/healthy_gym_preflight_ray_status_at_wiki_default_address_finds_nothing/run
echo "== ray status"
ray status --address 127.0.0.1:6379
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=53419 ++uv_venv_dir=/tmp/ho-healthy_gym_prefligh-0fcfrijc/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
