#!/bin/bash
# weekly eval: prep the review export, then gym eval run and profile
cd /work/wt-h90/tests/data/diagnosis_corpus/ninetieth_held_out/data_schema_gym_prep_shortens_every_prompt_to_eighty_characters_with_textwrap_so_long_questions_lose_their_end/run
/work/wt-h90/.venv/bin/python prep.py
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=52231 ++uv_venv_dir=/tmp/ho-data_schema_gym_prep-0ix20l3q/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
