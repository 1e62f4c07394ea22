#!/bin/bash
# weekly eval; collect runs in the team's eval container (network of the egress proxy sidecar, from the cluster's container template)
cd /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/infra_docker_collect_container_joins_network_namespace_of_egress_proxy_sidecar_absent_on_this_node/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h87/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h87-collect-59693  --network container:h87-egress-proxy -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h87/.venv:/work/wt-h87/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h87:/work/wt-h87:ro -v /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/infra_docker_collect_container_joins_network_namespace_of_egress_proxy_sidecar_absent_on_this_node/run:/work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/infra_docker_collect_container_joins_network_namespace_of_egress_proxy_sidecar_absent_on_this_node/run -e PYTHONPATH=/work/wt-h87 -w /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/infra_docker_collect_container_joins_network_namespace_of_egress_proxy_sidecar_absent_on_this_node/run gym-pipeline/base:bookworm \
  /work/wt-h87/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40885/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h87/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
