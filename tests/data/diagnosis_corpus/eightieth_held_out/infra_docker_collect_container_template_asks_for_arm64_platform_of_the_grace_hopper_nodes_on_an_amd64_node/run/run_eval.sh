#!/bin/bash
# weekly eval; collect runs in the eval container (team template flags)
cd /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/infra_docker_collect_container_template_asks_for_arm64_platform_of_the_grace_hopper_nodes_on_an_amd64_node/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h80/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h80-collect-33673 --pull never --platform linux/arm64 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h80/.venv:/work/wt-h80/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h80:/work/wt-h80:ro -v /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/infra_docker_collect_container_template_asks_for_arm64_platform_of_the_grace_hopper_nodes_on_an_amd64_node/run:/work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/infra_docker_collect_container_template_asks_for_arm64_platform_of_the_grace_hopper_nodes_on_an_amd64_node/run -e PYTHONPATH=/work/wt-h80 -w /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/infra_docker_collect_container_template_asks_for_arm64_platform_of_the_grace_hopper_nodes_on_an_amd64_node/run gym-pipeline/base:bookworm \
  /work/wt-h80/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:46607/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h80/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
