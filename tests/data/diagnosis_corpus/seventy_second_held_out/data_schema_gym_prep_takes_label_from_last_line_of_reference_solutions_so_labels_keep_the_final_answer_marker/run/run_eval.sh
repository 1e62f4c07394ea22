#!/bin/bash
# weekly eval of the annotated split
cd /work/wt-h72/tests/data/diagnosis_corpus/seventy_second_held_out/data_schema_gym_prep_takes_label_from_last_line_of_reference_solutions_so_labels_keep_the_final_answer_marker/run
/work/wt-h72/.venv/bin/python prep.py
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=36837 ++uv_venv_dir=/tmp/ho-data_schema_gym_prep-p26748yu/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
