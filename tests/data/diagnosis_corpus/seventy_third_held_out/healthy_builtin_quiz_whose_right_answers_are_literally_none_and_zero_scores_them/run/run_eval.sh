#!/bin/bash
# weekly eval of the trick-question quiz
cd /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/healthy_builtin_quiz_whose_right_answers_are_literally_none_and_zero_scores_them/run
/work/wt-h73/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h73/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41089/v1 --env string_match --concurrency 4
/work/wt-h73/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
