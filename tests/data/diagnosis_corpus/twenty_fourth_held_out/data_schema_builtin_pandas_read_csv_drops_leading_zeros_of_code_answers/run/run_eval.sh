#!/bin/bash
# eval of the codes set
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/data_schema_builtin_pandas_read_csv_drops_leading_zeros_of_code_answers/run
/work/wt-h24/.venv/bin/python prep_data.py codes.csv codes.jsonl
/work/wt-h24/.venv/bin/gym-pipeline materialize --input codes.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h24/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38681/v1 --env string_match --concurrency 4
/work/wt-h24/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
