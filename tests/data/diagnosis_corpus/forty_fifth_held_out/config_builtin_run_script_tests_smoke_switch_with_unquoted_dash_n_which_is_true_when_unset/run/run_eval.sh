#!/bin/bash
# weekly eval
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_tests_smoke_switch_with_unquoted_dash_n_which_is_true_when_unset/run
echo '== weekly eval'
# SMOKE=1 bash run_eval.sh for a quick check on the first 2 tasks
if [ -n $SMOKE ]; then
  echo 'smoke test: first 2 tasks only'; head -n 2 string_match.jsonl > tasks_run.jsonl
else
  cp string_match.jsonl tasks_run.jsonl
fi
/work/wt-h45/.venv/bin/gym-pipeline materialize --input tasks_run.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h45/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45445/v1 --env string_match --concurrency 4
/work/wt-h45/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
