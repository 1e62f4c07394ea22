#!/bin/bash
# weekly eval; collect runs in the eval container (flags from the sandbox nodes' template)
cd /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/infra_docker_collect_container_template_asks_for_gvisor_runsc_runtime_of_the_sandbox_nodes_that_this_nodes_docker_does_not_have/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h115/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h115-collect-53787 --runtime=runsc --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h115/.venv:/work/h115/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h115:/work/h115:ro -v /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/infra_docker_collect_container_template_asks_for_gvisor_runsc_runtime_of_the_sandbox_nodes_that_this_nodes_docker_does_not_have/run:/work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/infra_docker_collect_container_template_asks_for_gvisor_runsc_runtime_of_the_sandbox_nodes_that_this_nodes_docker_does_not_have/run -e PYTHONPATH=/work/h115 -w /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/infra_docker_collect_container_template_asks_for_gvisor_runsc_runtime_of_the_sandbox_nodes_that_this_nodes_docker_does_not_have/run gym-pipeline/base:bookworm \
  /work/h115/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36721/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h115/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
