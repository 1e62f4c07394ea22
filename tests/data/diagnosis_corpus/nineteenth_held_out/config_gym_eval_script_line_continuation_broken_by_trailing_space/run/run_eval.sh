#!/bin/bash
# nightly eval
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve ++head_server.port=48395 ++uv_venv_dir=/tmp/ho-config_gym_eval_scri-4zld_1nt/server_venvs ++skip_venv_if_present=true ++route_failures_to_sidecar=true \
    --agent string_match_simple_agent --input /work/wt-h19/tests/data/diagnosis_corpus/held_out/config_gym_eval_script_line_continuation_broken_by_trailing_space/run/tasks.jsonl \ 
    --output /work/wt-h19/tests/data/diagnosis_corpus/held_out/config_gym_eval_script_line_continuation_broken_by_trailing_space/run/results/rollouts.jsonl --num-repeats 2 --concurrency 4
