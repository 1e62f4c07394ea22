#!/bin/bash
# weekly eval against the policy server of serve.sh
cd /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/model_serving_docker_serve_script_publishes_policy_port_with_p_on_node_whose_docker_has_no_bridge_network/run
/work/wt-h83/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h83/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42221/v1 --env string_match --concurrency 4
/work/wt-h83/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
