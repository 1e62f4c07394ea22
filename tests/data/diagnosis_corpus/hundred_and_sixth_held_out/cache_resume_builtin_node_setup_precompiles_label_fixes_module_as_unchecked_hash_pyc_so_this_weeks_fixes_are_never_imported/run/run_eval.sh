#!/bin/bash
# weekly eval: apply the label fixes, materialize, collect, profile
cd /work/h106/tests/data/diagnosis_corpus/hundred_and_sixth_held_out/cache_resume_builtin_node_setup_precompiles_label_fixes_module_as_unchecked_hash_pyc_so_this_weeks_fixes_are_never_imported/run
/work/h106/.venv/bin/python prep.py
/work/h106/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h106/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42157/v1 --env string_match --concurrency 4
/work/h106/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
