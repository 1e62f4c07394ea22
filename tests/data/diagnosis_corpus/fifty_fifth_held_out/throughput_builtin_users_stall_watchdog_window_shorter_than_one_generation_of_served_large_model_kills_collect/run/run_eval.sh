#!/bin/bash
# weekly eval (the large checkpoint this week)
cd /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/throughput_builtin_users_stall_watchdog_window_shorter_than_one_generation_of_served_large_model_kills_collect/run
echo '== weekly eval'
/work/wt-h55/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h55/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34033/v1 --env string_match --concurrency 4 &
COLLECT=$!
bash watch_collect.sh $COLLECT rollouts.jsonl
wait $COLLECT
echo "collect exit $?"
/work/wt-h55/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
