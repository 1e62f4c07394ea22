#!/bin/bash
# weekly eval
cd /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/data_schema_builtin_prep_reads_answer_key_yaml_where_unquoted_clock_times_load_as_base_60_integers/run
echo '== weekly eval: build the dataset from the answer key'
/work/wt-h55/.venv/bin/python prep_answers.py questions.txt answers.yaml string_match.jsonl
/work/wt-h55/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h55/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38995/v1 --env string_match --concurrency 4
/work/wt-h55/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
