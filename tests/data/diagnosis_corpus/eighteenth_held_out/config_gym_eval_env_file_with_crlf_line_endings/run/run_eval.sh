#!/bin/bash
set -a
source /work/wt-h18/tests/data/diagnosis_corpus/held_out/config_gym_eval_env_file_with_crlf_line_endings/run/eval.env
set +a
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent "$AGENT" --input "$INPUT" --output "$OUTPUT" --num-repeats "$NUM_REPEATS" --concurrency "$CONCURRENCY" ++route_failures_to_sidecar=true ++head_server.port=48021 ++uv_venv_dir=/tmp/ho-config_gym_eval_env_-4r3pub42/server_venvs ++skip_venv_if_present=true
