#!/bin/bash
# weekly eval
cd /work/wt-h56/tests/data/diagnosis_corpus/fifty_sixth_held_out/model_serving_gym_gateway_renders_latex_markup_as_plain_text_for_chat_ui_so_boxed_answers_lose_their_box/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve  --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=59451 ++uv_venv_dir=/tmp/ho-model_serving_gym_ga-r463c8xs/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
