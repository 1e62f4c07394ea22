#!/bin/bash
# weekly eval; collect runs in the eval container (mounts as in the team template)
cd /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/infra_docker_collect_container_mounts_run_folder_with_ro_suffix_copied_from_dataset_mount_so_rollouts_cannot_be_written/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h107/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h107-collect-42017  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h107/.venv:/work/h107/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h107:/work/h107:ro -v /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/infra_docker_collect_container_mounts_run_folder_with_ro_suffix_copied_from_dataset_mount_so_rollouts_cannot_be_written/run:/work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/infra_docker_collect_container_mounts_run_folder_with_ro_suffix_copied_from_dataset_mount_so_rollouts_cannot_be_written/run:ro -e PYTHONPATH=/work/h107 -w /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/infra_docker_collect_container_mounts_run_folder_with_ro_suffix_copied_from_dataset_mount_so_rollouts_cannot_be_written/run gym-pipeline/base:bookworm \
  /work/h107/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34373/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h107/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
