#!/bin/bash
# weekly eval of step_0200
cd /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/model_serving_builtin_run_script_waits_for_url_file_still_written_by_last_weeks_forgotten_server/run
bash serve.sh step_0200 > logs/model_server.log 2>&1 &
SERVER=$!
until [ -s ~/policy.url ]; do sleep 1; done   # the server writes its URL once listening
URL=$(cat ~/policy.url)
echo "== model server at $URL"
/work/wt-h55/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h55/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
/work/wt-h55/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
kill $SERVER
