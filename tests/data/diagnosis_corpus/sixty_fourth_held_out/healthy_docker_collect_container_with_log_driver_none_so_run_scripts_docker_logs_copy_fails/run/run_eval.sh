#!/bin/bash
# weekly eval; the collect runs in the eval container (platform template flags)
cd /work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/healthy_docker_collect_container_with_log_driver_none_so_run_scripts_docker_logs_copy_fails/run
/work/wt-h64/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --name weekly-collect-44089 --log-driver none --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h64/.venv:/work/wt-h64/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h64:/work/wt-h64:ro -v /work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/healthy_docker_collect_container_with_log_driver_none_so_run_scripts_docker_logs_copy_fails/run:/work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/healthy_docker_collect_container_with_log_driver_none_so_run_scripts_docker_logs_copy_fails/run -e PYTHONPATH=/work/wt-h64 -w /work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/healthy_docker_collect_container_with_log_driver_none_so_run_scripts_docker_logs_copy_fails/run gym-pipeline/base:bookworm \
  /work/wt-h64/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35623/v1 --env string_match --concurrency 4
echo '== keep the container log'
docker logs weekly-collect-44089 > logs/collect_container.log
docker rm weekly-collect-44089
/work/wt-h64/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
