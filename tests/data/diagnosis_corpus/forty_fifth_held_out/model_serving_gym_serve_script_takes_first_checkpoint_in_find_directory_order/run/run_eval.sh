#!/bin/bash
# weekly eval
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/model_serving_gym_serve_script_takes_first_checkpoint_in_find_directory_order/run
echo '== weekly eval of exp12 (latest checkpoint)'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=54107 ++uv_venv_dir=/tmp/ho-model_serving_gym_se-uvxbpwt5/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
