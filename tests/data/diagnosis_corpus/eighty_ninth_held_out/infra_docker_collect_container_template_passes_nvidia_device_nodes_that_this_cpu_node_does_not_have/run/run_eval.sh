#!/bin/bash
# weekly eval; collect runs in the team's eval container (flags from the GPU nodes' container template)
cd /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/infra_docker_collect_container_template_passes_nvidia_device_nodes_that_this_cpu_node_does_not_have/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h89/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h89-collect-41515 --device /dev/nvidia0 --device /dev/nvidiactl --device /dev/nvidia-uvm --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h89/.venv:/work/wt-h89/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h89:/work/wt-h89:ro -v /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/infra_docker_collect_container_template_passes_nvidia_device_nodes_that_this_cpu_node_does_not_have/run:/work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/infra_docker_collect_container_template_passes_nvidia_device_nodes_that_this_cpu_node_does_not_have/run -e PYTHONPATH=/work/wt-h89 -w /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/infra_docker_collect_container_template_passes_nvidia_device_nodes_that_this_cpu_node_does_not_have/run gym-pipeline/base:bookworm \
  /work/wt-h89/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45485/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h89/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
