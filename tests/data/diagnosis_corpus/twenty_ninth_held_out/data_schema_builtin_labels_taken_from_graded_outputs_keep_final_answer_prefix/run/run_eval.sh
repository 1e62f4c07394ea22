#!/bin/bash
# eval of the graded questions
cd /work/wt-h29/tests/data/diagnosis_corpus/held_out/data_schema_builtin_labels_taken_from_graded_outputs_keep_final_answer_prefix/run
python3 prep_data.py graded.jsonl tasks.jsonl
/work/wt-h29/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h29/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33615/v1 --env string_match --concurrency 4
/work/wt-h29/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
