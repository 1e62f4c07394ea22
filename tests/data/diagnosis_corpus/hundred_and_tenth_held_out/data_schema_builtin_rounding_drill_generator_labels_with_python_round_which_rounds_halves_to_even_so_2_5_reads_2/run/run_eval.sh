#!/bin/bash
# weekly eval (rounding drill): generate the tasks, materialize, collect, profile
cd /work/h110/tests/data/diagnosis_corpus/hundred_and_tenth_held_out/data_schema_builtin_rounding_drill_generator_labels_with_python_round_which_rounds_halves_to_even_so_2_5_reads_2/run
/work/h110/.venv/bin/python make_tasks.py
/work/h110/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h110/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39815/v1 --env string_match --concurrency 4
/work/h110/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
