#!/bin/bash
# weekly eval
cd /work/wt-h51/tests/data/diagnosis_corpus/held_out/config_gym_team_overrides_keep_skip_verification_from_load_test_so_every_rollout_gets_the_placeholder_reward/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=51137 ++uv_venv_dir=/tmp/ho-config_gym_team_over-wjd0_2xp/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
