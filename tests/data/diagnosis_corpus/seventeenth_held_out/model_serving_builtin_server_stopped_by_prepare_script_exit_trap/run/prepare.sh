#!/bin/bash
set -e
# clean up the background jobs if anything below fails
trap 'kill $(jobs -p) 2>/dev/null' EXIT
/work/wt-h17/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /tmp/ho-model_serving_builti-85qq8zqe/model_url --checkpoint /tmp/ho-model_serving_builti-85qq8zqe/checkpoints/step_0200 --latency-ms 20 >> /work/wt-h17/tests/data/diagnosis_corpus/held_out/model_serving_builtin_server_stopped_by_prepare_script_exit_trap/run/logs/model_server.log 2>&1 &
while [ ! -s /tmp/ho-model_serving_builti-85qq8zqe/model_url ]; do sleep 0.5; done
echo "model server at $(cat /tmp/ho-model_serving_builti-85qq8zqe/model_url)"
/work/wt-h17/.venv/bin/gym-pipeline materialize --input /work/wt-h17/tests/data/diagnosis_corpus/held_out/model_serving_builtin_server_stopped_by_prepare_script_exit_trap/run/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output /work/wt-h17/tests/data/diagnosis_corpus/held_out/model_serving_builtin_server_stopped_by_prepare_script_exit_trap/run/rollouts_materialized_inputs.jsonl
