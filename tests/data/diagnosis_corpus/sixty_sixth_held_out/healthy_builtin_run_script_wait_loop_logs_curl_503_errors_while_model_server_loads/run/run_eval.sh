#!/bin/bash
# weekly eval, started together with the model server
cd /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/healthy_builtin_run_script_wait_loop_logs_curl_503_errors_while_model_server_loads/run
echo "== waiting for the model server to finish loading"
until curl -sSf http://127.0.0.1:33969/v1/models > /dev/null; do sleep 1; done
echo "model server ready: $(curl -s http://127.0.0.1:33969/v1/models)"
/work/wt-h66/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h66/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33969/v1 --env string_match --concurrency 4
/work/wt-h66/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
