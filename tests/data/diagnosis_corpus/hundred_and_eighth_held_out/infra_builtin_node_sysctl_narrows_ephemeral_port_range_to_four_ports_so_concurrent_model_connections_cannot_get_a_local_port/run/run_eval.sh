#!/bin/bash
# weekly eval: materialize, collect, profile (node settings recorded first)
cd /work/h108/tests/data/diagnosis_corpus/hundred_and_eighth_held_out/infra_builtin_node_sysctl_narrows_ephemeral_port_range_to_four_ports_so_concurrent_model_connections_cannot_get_a_local_port/run
sysctl net.ipv4.ip_local_port_range
/work/h108/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h108/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42613/v1 --env string_match --concurrency 16
/work/h108/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
