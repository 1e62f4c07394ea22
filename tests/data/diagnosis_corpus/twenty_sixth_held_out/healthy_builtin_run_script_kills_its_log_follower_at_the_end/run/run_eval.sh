#!/bin/bash
# weekly eval; follows the model server's log while it runs
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_kills_its_log_follower_at_the_end/run
tail -n 0 -f logs/model_server.log &
TAIL=$!
/work/wt-h26/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h26/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39957/v1 --env string_match --concurrency 4
/work/wt-h26/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo "== eval done, stopping the log follower"
kill $TAIL
wait $TAIL
