#!/bin/bash
# weekly eval (CI step, 45 s budget); next week's dedup scan runs beside it
cd /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/throughput_builtin_collect_under_chrt_idle_starved_by_users_own_cpu_bound_prep_job_past_ci_step_budget/run
/work/wt-h62/.venv/bin/python dedup_next_week.py > logs/dedup_next_week.log 2>&1 &
DEDUP=$!
/work/wt-h62/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
# the eval is a batch job: run it at the lowest priority (team wrapper: chrt --idle 0)
timeout 45 chrt --idle 0 /work/wt-h62/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45411/v1 --env string_match --concurrency 4
echo "collect exit $?"
/work/wt-h62/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
wait $DEDUP
