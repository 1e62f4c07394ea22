#!/bin/bash
# weekly eval (the CI job runs `SMOKE=0 bash run_eval.sh`)
cd /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/config_builtin_run_script_tests_smoke_switch_with_greater_than_in_single_brackets_which_redirects_so_every_run_is_a_smoke_run/run
# SMOKE=1 for a quick check of the pipeline (one repeat); the weekly CI job sets SMOKE=0
SMOKE=${SMOKE:-0}
REPEATS=3
if [ $SMOKE > 0 ]; then
  echo "smoke run: one repeat per task"
  REPEATS=1
fi
echo "SMOKE=$SMOKE REPEATS=$REPEATS"
/work/h95/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/h95/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34695/v1 \
  --env string_match --concurrency 4
/work/h95/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
