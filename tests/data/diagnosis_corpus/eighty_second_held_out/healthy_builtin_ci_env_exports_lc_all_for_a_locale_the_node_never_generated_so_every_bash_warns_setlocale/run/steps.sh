#!/bin/bash
# the eval's steps (run in a fresh bash, as the CI runner does)
echo "steps: locale $LC_ALL, repeats $EVAL_REPEATS"
/work/wt-h82/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $EVAL_REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h82/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37261/v1 --env string_match --concurrency 4
/work/wt-h82/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
