#!/bin/bash
# weekly eval: prep the review export, then gym eval run and profile
cd /work/wt-h90/tests/data/diagnosis_corpus/ninetieth_held_out/healthy_gym_prep_passes_prompts_through_textwrap_shorten_with_a_width_none_of_them_reaches/run
/work/wt-h90/.venv/bin/python prep.py
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=39245 ++uv_venv_dir=/tmp/ho-healthy_gym_prep_pas-pcsyzvis/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
