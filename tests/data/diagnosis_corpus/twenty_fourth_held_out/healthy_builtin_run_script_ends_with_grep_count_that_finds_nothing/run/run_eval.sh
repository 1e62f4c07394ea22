#!/bin/bash
# weekly eval; ends with a count of the server's tracebacks
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_ends_with_grep_count_that_finds_nothing/run
/work/wt-h24/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h24/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35565/v1 --env string_match --concurrency 4
/work/wt-h24/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo "== server tracebacks"
grep -c Traceback logs/model_server.log
