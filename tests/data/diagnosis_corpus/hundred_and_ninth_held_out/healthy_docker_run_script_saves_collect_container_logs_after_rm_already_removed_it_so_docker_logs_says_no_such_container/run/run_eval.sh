#!/bin/bash
# weekly eval; collect runs in the eval container
cd /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/healthy_docker_run_script_saves_collect_container_logs_after_rm_already_removed_it_so_docker_logs_says_no_such_container/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h109/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h109-collect-47323  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h109/.venv:/work/h109/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h109:/work/h109:ro -v /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/healthy_docker_run_script_saves_collect_container_logs_after_rm_already_removed_it_so_docker_logs_says_no_such_container/run:/work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/healthy_docker_run_script_saves_collect_container_logs_after_rm_already_removed_it_so_docker_logs_says_no_such_container/run -e PYTHONPATH=/work/h109 -w /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/healthy_docker_run_script_saves_collect_container_logs_after_rm_already_removed_it_so_docker_logs_says_no_such_container/run gym-pipeline/base:bookworm \
  /work/h109/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45239/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
echo '== keep the container output'
mkdir -p logs
docker logs h109-collect-47323 > logs/collect_container.log
/work/h109/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
