#!/bin/bash
# weekly eval; collect runs in the eval container (platform template flags)
cd /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/healthy_docker_collect_container_template_keeps_deprecated_kernel_memory_flag_so_docker_warns_on_every_run/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h73/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h73-collect-43523 --kernel-memory 512m --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h73/.venv:/work/wt-h73/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h73:/work/wt-h73:ro -v /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/healthy_docker_collect_container_template_keeps_deprecated_kernel_memory_flag_so_docker_warns_on_every_run/run:/work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/healthy_docker_collect_container_template_keeps_deprecated_kernel_memory_flag_so_docker_warns_on_every_run/run -e PYTHONPATH=/work/wt-h73 -w /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/healthy_docker_collect_container_template_keeps_deprecated_kernel_memory_flag_so_docker_warns_on_every_run/run gym-pipeline/base:bookworm \
  /work/wt-h73/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37447/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h73/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
