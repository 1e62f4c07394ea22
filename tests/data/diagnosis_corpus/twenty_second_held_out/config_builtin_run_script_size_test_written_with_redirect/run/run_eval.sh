#!/bin/bash
# weekly eval; big sets (over 100 tasks) are evaluated on a fixed 10-task sample to save time
cd /work/wt-h22/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_size_test_written_with_redirect/run
DATA=data/trivia.jsonl
N=$(wc -l < $DATA)
if [ $N > 100 ]; then
  echo "$N tasks: large set, evaluating a fixed 10-task sample"
  shuf -n 10 --random-source=<(yes) $DATA > eval_tasks.jsonl
else
  echo "$N tasks: evaluating all of them"
  cp $DATA eval_tasks.jsonl
fi
/work/wt-h22/.venv/bin/gym-pipeline materialize --input eval_tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h22/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42125/v1 --env string_match --concurrency 4
/work/wt-h22/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
