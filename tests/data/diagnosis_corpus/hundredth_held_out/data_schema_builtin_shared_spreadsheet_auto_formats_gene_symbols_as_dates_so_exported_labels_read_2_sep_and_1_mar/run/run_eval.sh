#!/bin/bash
# weekly eval (bio set): prep the label sheet export, materialize, collect, profile
cd /work/h100/tests/data/diagnosis_corpus/hundredth_held_out/data_schema_builtin_shared_spreadsheet_auto_formats_gene_symbols_as_dates_so_exported_labels_read_2_sep_and_1_mar/run
/work/h100/.venv/bin/python prep.py
/work/h100/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h100/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42233/v1 --env string_match --concurrency 4
/work/h100/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
