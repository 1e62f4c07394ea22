#!/bin/bash
# weekly eval; collect runs in the eval container (mounts as in the team template: read-only)
cd /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/infra_docker_collect_container_mounts_run_folder_read_only_like_the_templates_data_mounts_so_rollouts_cannot_be_written/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h103/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h103-collect-52057  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h103/.venv:/work/h103/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h103:/work/h103:ro -v /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/infra_docker_collect_container_mounts_run_folder_read_only_like_the_templates_data_mounts_so_rollouts_cannot_be_written/run:/work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/infra_docker_collect_container_mounts_run_folder_read_only_like_the_templates_data_mounts_so_rollouts_cannot_be_written/run:ro -e PYTHONPATH=/work/h103 -w /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/infra_docker_collect_container_mounts_run_folder_read_only_like_the_templates_data_mounts_so_rollouts_cannot_be_written/run gym-pipeline/base:bookworm \
  /work/h103/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44773/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h103/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
