#!/bin/bash
# nightly eval of the test split
cd /work/wt-h20/tests/data/diagnosis_corpus/held_out/config_gym_eval_input_glob_also_matches_dev_split/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input data/*.jsonl --output results/rollouts.jsonl --num-repeats 2 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=39623 ++uv_venv_dir=/tmp/ho-config_gym_eval_inpu-cr0hfcr6/server_venvs ++skip_venv_if_present=true
