#!/bin/bash
# weekly eval; collect runs in the eval container; policy-server as in the CI template
cd /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/infra_docker_collect_container_add_host_maps_policy_hostname_to_node_eth0_address_where_loopback_bound_server_refuses/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h109/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h109-collect-56915 --add-host policy-server:192.0.2.2 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h109/.venv:/work/h109/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h109:/work/h109:ro -v /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/infra_docker_collect_container_add_host_maps_policy_hostname_to_node_eth0_address_where_loopback_bound_server_refuses/run:/work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/infra_docker_collect_container_add_host_maps_policy_hostname_to_node_eth0_address_where_loopback_bound_server_refuses/run -e PYTHONPATH=/work/h109 -w /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/infra_docker_collect_container_add_host_maps_policy_hostname_to_node_eth0_address_where_loopback_bound_server_refuses/run gym-pipeline/base:bookworm \
  /work/h109/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://policy-server:38773/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h109/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
