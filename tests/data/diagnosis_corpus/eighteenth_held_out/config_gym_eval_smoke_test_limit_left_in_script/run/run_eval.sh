#!/bin/bash
# nightly eval of the full set
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input /work/wt-h18/tests/data/diagnosis_corpus/held_out/config_gym_eval_smoke_test_limit_left_in_script/run/tasks.jsonl --output /work/wt-h18/tests/data/diagnosis_corpus/held_out/config_gym_eval_smoke_test_limit_left_in_script/run/results/rollouts.jsonl --num-repeats 2 --concurrency 4 --limit 3 ++route_failures_to_sidecar=true ++head_server.port=34059 ++uv_venv_dir=/tmp/ho-config_gym_eval_smok-jfx6p4hu/server_venvs ++skip_venv_if_present=true
