#!/bin/bash
# weekly eval; collect runs in the eval container
cd /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/healthy_docker_run_script_records_base_image_repo_digest_that_a_locally_built_image_lacks_so_inspect_template_fails/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h105/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
echo "== image: gym-pipeline/base:bookworm digest $(docker image inspect --format '{{index .RepoDigests 0}}' gym-pipeline/base:bookworm)"
docker run --rm --name h105-collect-49317  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h105/.venv:/work/h105/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h105:/work/h105:ro -v /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/healthy_docker_run_script_records_base_image_repo_digest_that_a_locally_built_image_lacks_so_inspect_template_fails/run:/work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/healthy_docker_run_script_records_base_image_repo_digest_that_a_locally_built_image_lacks_so_inspect_template_fails/run -e PYTHONPATH=/work/h105 -w /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/healthy_docker_run_script_records_base_image_repo_digest_that_a_locally_built_image_lacks_so_inspect_template_fails/run gym-pipeline/base:bookworm \
  /work/h105/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44219/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h105/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
