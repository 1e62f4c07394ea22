#!/bin/bash
# weekly eval; collect runs in the eval container (flags from the CI runner's container template)
cd /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/infra_docker_collect_container_template_reads_env_file_from_ci_runner_path_absent_on_this_node_so_docker_refuses/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h101/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h101-collect-52741 --env-file /etc/ci/eval.env --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h101/.venv:/work/h101/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h101:/work/h101:ro -v /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/infra_docker_collect_container_template_reads_env_file_from_ci_runner_path_absent_on_this_node_so_docker_refuses/run:/work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/infra_docker_collect_container_template_reads_env_file_from_ci_runner_path_absent_on_this_node_so_docker_refuses/run -e PYTHONPATH=/work/h101 -w /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/infra_docker_collect_container_template_reads_env_file_from_ci_runner_path_absent_on_this_node_so_docker_refuses/run gym-pipeline/base:bookworm \
  /work/h101/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45589/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h101/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
