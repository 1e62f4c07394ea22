#!/bin/bash
# weekly eval
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_tests_unquoted_unset_quick_flag_with_dash_n_so_quick_mode_always_on/run
# quick mode: EVAL_QUICK=1 evaluates only the first 2 tasks (for trying out changes)
if [ -n $EVAL_QUICK ]; then
  echo 'quick mode: first 2 tasks only'
  head -n 2 string_match.jsonl > eval_tasks.jsonl
else
  cp string_match.jsonl eval_tasks.jsonl
fi
echo "== weekly eval of $(wc -l < eval_tasks.jsonl) tasks"
/work/wt-h43/.venv/bin/gym-pipeline materialize --input eval_tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h43/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35989/v1 --env string_match --concurrency 4
/work/wt-h43/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
