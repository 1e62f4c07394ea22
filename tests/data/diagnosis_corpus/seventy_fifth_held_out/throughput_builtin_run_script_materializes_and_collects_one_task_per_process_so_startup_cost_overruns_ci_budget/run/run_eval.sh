#!/bin/bash
# nightly eval
cd /work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/throughput_builtin_run_script_materializes_and_collects_one_task_per_process_so_startup_cost_overruns_ci_budget/run
# CI step budget: 20 s. One task at a time, so that a bad row only loses its own rollouts.
rm -rf per_task && mkdir per_task
n=0
while read -r row; do
  n=$((n + 1))
  mkdir -p per_task/$n && echo "$row" > per_task/$n/task.jsonl
  /work/wt-h75/.venv/bin/gym-pipeline materialize --input per_task/$n/task.jsonl --num-repeats 3 --agent string_match_simple_agent \
    --output per_task/$n/inputs.jsonl
  /work/wt-h75/.venv/bin/gym-pipeline collect --inputs per_task/$n/inputs.jsonl --output per_task/$n/rollouts.jsonl --model-url http://127.0.0.1:34841/v1 \
    --env string_match --concurrency 4
  echo "task $n done"
done < string_match.jsonl
cat per_task/*/inputs.jsonl > rollouts_materialized_inputs.jsonl
cat per_task/*/rollouts.jsonl > rollouts.jsonl
/work/wt-h75/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
