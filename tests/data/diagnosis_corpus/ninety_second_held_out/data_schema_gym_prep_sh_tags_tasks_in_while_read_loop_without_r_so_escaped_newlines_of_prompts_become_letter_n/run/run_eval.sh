#!/bin/bash
# weekly eval: tag the bank export, then gym eval run and profile
cd /work/h92/tests/data/diagnosis_corpus/ninety_second_held_out/data_schema_gym_prep_sh_tags_tasks_in_while_read_loop_without_r_so_escaped_newlines_of_prompts_become_letter_n/run
bash prep.sh
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=43797 ++uv_venv_dir=/tmp/ho-data_schema_gym_prep-jk74klki/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
