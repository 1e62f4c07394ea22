#!/bin/bash
# weekly eval; collect runs in the eval container (platform template: shared cache mount)
cd /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/infra_docker_collect_container_mounts_cache_with_mount_flag_whose_bind_source_does_not_exist_on_this_node/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h71/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h71-collect-41199 --mount type=bind,source=$PWD/.cache/eval,target=/cache --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h71/.venv:/work/wt-h71/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h71:/work/wt-h71:ro -v /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/infra_docker_collect_container_mounts_cache_with_mount_flag_whose_bind_source_does_not_exist_on_this_node/run:/work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/infra_docker_collect_container_mounts_cache_with_mount_flag_whose_bind_source_does_not_exist_on_this_node/run -e PYTHONPATH=/work/wt-h71 -w /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/infra_docker_collect_container_mounts_cache_with_mount_flag_whose_bind_source_does_not_exist_on_this_node/run gym-pipeline/base:bookworm \
  /work/wt-h71/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33091/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h71/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
