#!/bin/bash
# run_eval.sh: the weekly eval (repeats from the CI pipeline, 3 by default)
cd /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/config_builtin_run_script_defaults_repeats_with_dash_instead_of_colon_dash_so_empty_ci_variable_passes_empty_value/run
REPEATS=${EVAL_REPEATS-3}
echo "eval: repeats '$REPEATS'"
/work/wt-h87/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats "$REPEATS" --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h87/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34611/v1 --env string_match --concurrency 4
/work/wt-h87/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
