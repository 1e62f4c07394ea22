#!/bin/bash
# weekly eval on the shared endpoint
cd /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/throughput_builtin_collect_at_concurrency_one_against_one_second_endpoint_cannot_finish_inside_ci_step_timeout/run
# the shared endpoint is slow this week: be gentle with it (one request at a time)
# CI gives this step 40 s (ci.yaml: timeout-minutes of the old smoke job, in seconds here)
/work/wt-h85/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
timeout 40 /work/wt-h85/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35275/v1 \
  --env string_match --concurrency 1
echo "collect exit: $?"
/work/wt-h85/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
