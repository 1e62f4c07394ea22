#!/bin/bash
# weekly eval
cd /work/wt-h59/tests/data/diagnosis_corpus/fifty_ninth_held_out/data_schema_gym_prep_chat_template_puts_question_in_system_message_so_tasks_have_no_user_turn/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=43275 ++uv_venv_dir=/tmp/ho-data_schema_gym_prep-l_1kom97/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
