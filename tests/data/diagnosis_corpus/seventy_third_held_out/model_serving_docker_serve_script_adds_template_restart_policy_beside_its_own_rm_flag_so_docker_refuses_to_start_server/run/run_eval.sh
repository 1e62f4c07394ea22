#!/bin/bash
# weekly eval against the model server serve.sh starts
cd /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/model_serving_docker_serve_script_adds_template_restart_policy_beside_its_own_rm_flag_so_docker_refuses_to_start_server/run
bash serve.sh /tmp/ho-model_serving_docker-27mr88en/ready
echo "serve.sh exit: $?"
for i in $(seq 10); do [ -s /tmp/ho-model_serving_docker-27mr88en/ready/url ] && break; sleep 1; done
URL=$(cat /tmp/ho-model_serving_docker-27mr88en/ready/url 2>/dev/null || echo http://127.0.0.1:49287/v1)
echo "model server: $URL"
/work/wt-h73/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h73/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
/work/wt-h73/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
