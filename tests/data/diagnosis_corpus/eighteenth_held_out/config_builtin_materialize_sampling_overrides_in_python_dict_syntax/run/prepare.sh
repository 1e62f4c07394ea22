#!/bin/bash
# sampling settings from the notebook
/work/wt-h18/.venv/bin/gym-pipeline materialize --input /work/wt-h18/tests/data/diagnosis_corpus/held_out/config_builtin_materialize_sampling_overrides_in_python_dict_syntax/run/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --responses-create-params "{'temperature': 0.6, 'top_p': 0.95}" --output /work/wt-h18/tests/data/diagnosis_corpus/held_out/config_builtin_materialize_sampling_overrides_in_python_dict_syntax/run/rollouts_materialized_inputs.jsonl
