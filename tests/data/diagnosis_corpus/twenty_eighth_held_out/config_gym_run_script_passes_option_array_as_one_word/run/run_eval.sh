#!/bin/bash
# weekly eval
cd /work/wt-h28/tests/data/diagnosis_corpus/held_out/config_gym_run_script_passes_option_array_as_one_word/run
EVAL_ARGS=(--num-repeats 3 --concurrency 4)
echo "== weekly eval: ${EVAL_ARGS[*]}"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl "${EVAL_ARGS[*]}" ++route_failures_to_sidecar=true ++head_server.port=47379 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-najb40s6/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
