#!/bin/bash
# weekly eval
cd /work/wt-h52/tests/data/diagnosis_corpus/held_out/config_gym_team_model_yaml_extra_body_from_latency_benchmark_caps_every_generation_at_six_tokens/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=33199 ++uv_venv_dir=/tmp/ho-config_gym_team_mode-ec4pryd0/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
