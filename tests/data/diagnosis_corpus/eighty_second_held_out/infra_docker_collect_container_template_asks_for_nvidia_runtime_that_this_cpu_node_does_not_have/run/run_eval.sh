#!/bin/bash
# weekly eval; collect runs in the eval container (GPU-node template flags)
cd /work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/infra_docker_collect_container_template_asks_for_nvidia_runtime_that_this_cpu_node_does_not_have/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h82/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h82-collect-60121 --runtime nvidia -e NVIDIA_VISIBLE_DEVICES=all --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h82/.venv:/work/wt-h82/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h82:/work/wt-h82:ro -v /work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/infra_docker_collect_container_template_asks_for_nvidia_runtime_that_this_cpu_node_does_not_have/run:/work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/infra_docker_collect_container_template_asks_for_nvidia_runtime_that_this_cpu_node_does_not_have/run -e PYTHONPATH=/work/wt-h82 -w /work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/infra_docker_collect_container_template_asks_for_nvidia_runtime_that_this_cpu_node_does_not_have/run gym-pipeline/base:bookworm \
  /work/wt-h82/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45449/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h82/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
