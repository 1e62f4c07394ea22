#!/bin/bash
# weekly eval; collect runs in the pinned eval image (no registry access from the eval nodes)
cd /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/infra_docker_collect_container_pinned_to_dated_image_tag_that_nightly_prune_removed_from_node_with_pull_never/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h97/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h97-collect-36877 --pull never --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h97/.venv:/work/h97/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h97:/work/h97:ro -v /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/infra_docker_collect_container_pinned_to_dated_image_tag_that_nightly_prune_removed_from_node_with_pull_never/run:/work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/infra_docker_collect_container_pinned_to_dated_image_tag_that_nightly_prune_removed_from_node_with_pull_never/run -e PYTHONPATH=/work/h97 -w /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/infra_docker_collect_container_pinned_to_dated_image_tag_that_nightly_prune_removed_from_node_with_pull_never/run gym-pipeline/base:bookworm-2026.11 \
  /work/h97/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38077/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h97/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
