#!/bin/bash
# evaluate the split
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input "~/datasets/tasks.jsonl" --output /work/wt-h14/tests/data/diagnosis_corpus/held_out/config_gym_eval_input_tilde_in_quotes_not_expanded/run/results/rollouts.jsonl --num-repeats 2 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=51347 ++uv_venv_dir=/tmp/ho-config_gym_eval_inpu-fdsb78gx/server_venvs ++skip_venv_if_present=true
