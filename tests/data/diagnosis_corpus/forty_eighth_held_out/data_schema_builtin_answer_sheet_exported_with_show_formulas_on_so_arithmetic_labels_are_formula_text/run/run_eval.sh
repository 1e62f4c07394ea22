#!/bin/bash
# weekly eval
cd /work/wt-h48/tests/data/diagnosis_corpus/held_out/data_schema_builtin_answer_sheet_exported_with_show_formulas_on_so_arithmetic_labels_are_formula_text/run
echo '== weekly eval'
head -c 300 string_match.jsonl; echo
/work/wt-h48/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h48/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45257/v1 --env string_match --concurrency 4
/work/wt-h48/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
