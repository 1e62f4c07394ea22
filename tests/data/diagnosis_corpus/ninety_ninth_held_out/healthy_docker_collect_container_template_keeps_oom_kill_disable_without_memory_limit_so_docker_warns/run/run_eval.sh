#!/bin/bash
# weekly eval; collect runs in the team's eval container (flags from the container template)
cd /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/healthy_docker_collect_container_template_keeps_oom_kill_disable_without_memory_limit_so_docker_warns/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h99/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h99-collect-44369 --oom-kill-disable --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h99/.venv:/work/h99/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h99:/work/h99:ro -v /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/healthy_docker_collect_container_template_keeps_oom_kill_disable_without_memory_limit_so_docker_warns/run:/work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/healthy_docker_collect_container_template_keeps_oom_kill_disable_without_memory_limit_so_docker_warns/run -e PYTHONPATH=/work/h99 -w /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/healthy_docker_collect_container_template_keeps_oom_kill_disable_without_memory_limit_so_docker_warns/run gym-pipeline/base:bookworm \
  /work/h99/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34503/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h99/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
