#!/bin/bash
# weekly eval; collect runs in the eval container (team template: dataset mounted read-only)
cd /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/infra_docker_collect_container_template_mounts_dataset_folder_read_only_at_run_folder_path_so_docker_refuses/run
DATA_DIR=/work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/infra_docker_collect_container_template_mounts_dataset_folder_read_only_at_run_folder_path_so_docker_refuses/run   # the dataset now lives beside the run's files
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h77/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h77-collect-40581 -v $DATA_DIR:$DATA_DIR:ro --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h77/.venv:/work/wt-h77/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h77:/work/wt-h77:ro -v /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/infra_docker_collect_container_template_mounts_dataset_folder_read_only_at_run_folder_path_so_docker_refuses/run:/work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/infra_docker_collect_container_template_mounts_dataset_folder_read_only_at_run_folder_path_so_docker_refuses/run -e PYTHONPATH=/work/wt-h77 -w /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/infra_docker_collect_container_template_mounts_dataset_folder_read_only_at_run_folder_path_so_docker_refuses/run gym-pipeline/base:bookworm \
  /work/wt-h77/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36437/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h77/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
