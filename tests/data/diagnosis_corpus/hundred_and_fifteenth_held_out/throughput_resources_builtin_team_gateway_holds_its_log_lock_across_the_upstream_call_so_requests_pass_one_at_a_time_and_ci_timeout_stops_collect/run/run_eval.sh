#!/bin/bash
# nightly CI eval step through the team gateway (budget: 60 s)
cd /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/throughput_resources_builtin_team_gateway_holds_its_log_lock_across_the_upstream_call_so_requests_pass_one_at_a_time_and_ci_timeout_stops_collect/run
/work/h115/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
timeout 60 /work/h115/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:43339/v1 --env string_match --concurrency 16
echo "collect exit: $?"
/work/h115/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
