#!/bin/bash
# weekly eval of the labelling sheet
cd /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/data_schema_builtin_prep_reads_sheet_with_pandas_whose_blank_cells_turn_numeric_answers_into_floats/run
/work/wt-h62/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h62/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42593/v1 --env string_match --concurrency 4
/work/wt-h62/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
