#!/bin/bash
# weekly eval
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/infra_builtin_mtu_test_firewall_rule_left_drops_large_packets_from_model_port/run
echo '== weekly eval'
/work/wt-h44/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h44/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:53935/v1 --env string_match --concurrency 4
/work/wt-h44/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
