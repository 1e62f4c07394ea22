#!/bin/bash
# weekly eval; collect runs in the eval container (run folder mounted from ./run)
cd /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/infra_docker_collect_container_mounts_bare_name_run_which_docker_takes_for_a_named_volume_hiding_the_run_folder/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h105/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h105-collect-42085  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h105/.venv:/work/h105/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h105:/work/h105:ro -v run:/work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/infra_docker_collect_container_mounts_bare_name_run_which_docker_takes_for_a_named_volume_hiding_the_run_folder/run -e PYTHONPATH=/work/h105 -w /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/infra_docker_collect_container_mounts_bare_name_run_which_docker_takes_for_a_named_volume_hiding_the_run_folder/run gym-pipeline/base:bookworm \
  /work/h105/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35443/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h105/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
