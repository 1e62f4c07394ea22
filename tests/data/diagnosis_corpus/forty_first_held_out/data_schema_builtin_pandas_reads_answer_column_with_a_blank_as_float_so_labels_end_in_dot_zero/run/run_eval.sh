#!/bin/bash
# weekly eval
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/data_schema_builtin_pandas_reads_answer_column_with_a_blank_as_float_so_labels_end_in_dot_zero/run
echo '== weekly eval'
/work/wt-h41/.venv/bin/python prepare_data.py
/work/wt-h41/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h41/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44217/v1 --env string_match --concurrency 4
/work/wt-h41/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
