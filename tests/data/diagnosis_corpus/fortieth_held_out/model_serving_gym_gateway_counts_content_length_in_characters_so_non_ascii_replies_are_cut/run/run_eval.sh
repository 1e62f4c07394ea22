#!/bin/bash
# weekly eval
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/model_serving_gym_gateway_counts_content_length_in_characters_so_non_ascii_replies_are_cut/run
echo '== weekly eval, through the team gateway'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=57465 ++uv_venv_dir=/tmp/ho-model_serving_gym_ga-_p3n56m8/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
