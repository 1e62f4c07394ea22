#!/bin/bash
# weekly eval; collect runs in a container (the node's Python is not the eval's)
cd /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/healthy_docker_run_script_removes_last_weeks_named_collect_container_that_is_already_gone/run
docker rm weekly-collect-34583   # last week's container, if it is still around
/work/wt-h60/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
# collect in the eval container
docker run --rm --name weekly-collect-34583 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h60/.venv:/work/wt-h60/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h60:/work/wt-h60:ro -v /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/healthy_docker_run_script_removes_last_weeks_named_collect_container_that_is_already_gone/run:/work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/healthy_docker_run_script_removes_last_weeks_named_collect_container_that_is_already_gone/run -e PYTHONPATH=/work/wt-h60 -w /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/healthy_docker_run_script_removes_last_weeks_named_collect_container_that_is_already_gone/run gym-pipeline/base:bookworm \
  /work/wt-h60/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33853/v1 --env string_match --concurrency 4
/work/wt-h60/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
