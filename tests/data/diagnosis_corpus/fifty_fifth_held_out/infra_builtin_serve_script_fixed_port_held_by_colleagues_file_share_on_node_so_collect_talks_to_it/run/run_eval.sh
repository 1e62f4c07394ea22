#!/bin/bash
# weekly eval
cd /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/infra_builtin_serve_script_fixed_port_held_by_colleagues_file_share_on_node_so_collect_talks_to_it/run
bash serve.sh > logs/model_server.log 2>&1 &
SERVER=$!
sleep 5   # the server is up within a few seconds
URL=http://127.0.0.1:8765/v1
echo "== collecting from $URL"
/work/wt-h55/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h55/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
/work/wt-h55/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
kill $SERVER 2>/dev/null
