#!/bin/bash
# weekly eval
cd /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/data_schema_builtin_prep_reads_labels_csv_with_pandas_so_namibias_code_na_becomes_nan/run
echo '== weekly eval'
/work/wt-h58/.venv/bin/gym-pipeline materialize --input codes.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h58/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37513/v1 --env string_match --concurrency 4
/work/wt-h58/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
