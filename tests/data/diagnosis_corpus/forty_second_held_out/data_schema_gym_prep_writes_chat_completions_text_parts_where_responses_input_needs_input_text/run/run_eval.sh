#!/bin/bash
# weekly eval
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/data_schema_gym_prep_writes_chat_completions_text_parts_where_responses_input_needs_input_text/run
echo '== weekly eval'
python3 prepare_data.py
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=44339 ++uv_venv_dir=/tmp/ho-data_schema_gym_prep-mn62azc2/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
