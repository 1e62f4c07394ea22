#!/bin/bash
# weekly eval
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_expr_with_unquoted_asterisk_globs_run_folder_files/run
BASE_REPEATS=2
REPEATS=$(expr $BASE_REPEATS * 2)   # pass@k study: twice the usual repeats
echo "== weekly eval with $REPEATS repeats"
/work/wt-h39/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h39/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42521/v1 --env string_match --concurrency 4
/work/wt-h39/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
