#!/bin/bash
# weekly eval of the release step; the report compares it with the baseline $CKPT
cd /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/model_serving_builtin_run_script_exports_baseline_ckpt_variable_that_serve_script_reads_as_its_checkpoint/run
export CKPT=step_0100   # baseline for the report's comparison column
echo "== weekly eval of step_0200 (baseline $CKPT)"
echo step_0200 > evaluated_checkpoint.txt
bash serve.sh > logs/model_server.log 2>&1 &
SERVER=$!
for i in $(seq 30); do [ -s /tmp/ho-model_serving_builti-1f37t4w5/serve-ready ] && break; sleep 1; done
URL=$(cat /tmp/ho-model_serving_builti-1f37t4w5/serve-ready)
/work/wt-h54/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h54/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
/work/wt-h54/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
kill $SERVER
