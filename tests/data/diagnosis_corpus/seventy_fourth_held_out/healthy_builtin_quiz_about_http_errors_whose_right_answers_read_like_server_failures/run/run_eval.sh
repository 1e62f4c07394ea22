#!/bin/bash
# weekly eval of the error-codes quiz
cd /work/wt-h74/tests/data/diagnosis_corpus/seventy_fourth_held_out/healthy_builtin_quiz_about_http_errors_whose_right_answers_read_like_server_failures/run
/work/wt-h74/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h74/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41465/v1 --env string_match --concurrency 4
/work/wt-h74/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
