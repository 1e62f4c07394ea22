#!/bin/bash
# weekly calibration quiz (all statements true)
cd /work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/healthy_builtin_true_or_false_quiz_whose_right_answers_are_all_true_so_every_label_is_the_same/run
/work/wt-h75/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h75/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35187/v1 --env string_match --concurrency 4
/work/wt-h75/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
