#!/bin/bash
# weekly eval
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_floors_repeats_with_string_comparison_in_double_brackets/run
REPEATS=${EVAL_REPEATS:-3}
# per-task statistics need at least 4 repeats
if [[ $REPEATS < 4 ]]; then
  echo "repeats $REPEATS below the minimum, using 4"
  REPEATS=4
fi
echo "== weekly eval, $REPEATS repeats"
/work/wt-h43/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h43/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42653/v1 --env string_match --concurrency 8
/work/wt-h43/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
