#!/bin/bash
# weekly eval; collect runs in the eval container
cd /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/healthy_docker_run_script_prunes_pip_cache_volume_of_an_older_image_that_was_never_created_on_this_node/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h107/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
echo '== free the pip cache of the retired py310 image'
docker volume rm h107-pip-cache-py310
docker run --rm --name h107-collect-39773  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h107/.venv:/work/h107/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h107:/work/h107:ro -v /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/healthy_docker_run_script_prunes_pip_cache_volume_of_an_older_image_that_was_never_created_on_this_node/run:/work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/healthy_docker_run_script_prunes_pip_cache_volume_of_an_older_image_that_was_never_created_on_this_node/run -e PYTHONPATH=/work/h107 -w /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/healthy_docker_run_script_prunes_pip_cache_volume_of_an_older_image_that_was_never_created_on_this_node/run gym-pipeline/base:bookworm \
  /work/h107/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40269/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h107/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
