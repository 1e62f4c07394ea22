#!/bin/bash
# materialize the eval set (trivia + arithmetic), 3 repeats
cd /work/wt-h21/tests/data/diagnosis_corpus/held_out/config_builtin_materialize_input_flag_given_twice_last_wins/run
/work/wt-h21/.venv/bin/gym-pipeline materialize --input data/trivia.jsonl --input data/arithmetic.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
