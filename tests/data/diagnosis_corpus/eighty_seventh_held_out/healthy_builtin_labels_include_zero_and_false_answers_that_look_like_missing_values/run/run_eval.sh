#!/bin/bash
# weekly eval (arithmetic and yes/no questions added this week)
cd /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/healthy_builtin_labels_include_zero_and_false_answers_that_look_like_missing_values/run
echo '== labels of this week'
grep -o '"expected_answer": "[^"]*"' string_match.jsonl
/work/wt-h87/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h87/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38421/v1 --env string_match --concurrency 4
/work/wt-h87/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
