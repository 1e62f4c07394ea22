#!/bin/bash
# weekly eval: the log-reading quiz
cd /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/healthy_builtin_debugging_quiz_prompts_quote_tracebacks_and_fatal_error_lines/run
/work/wt-h77/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h77/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42171/v1 --env string_match --concurrency 4
/work/wt-h77/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
