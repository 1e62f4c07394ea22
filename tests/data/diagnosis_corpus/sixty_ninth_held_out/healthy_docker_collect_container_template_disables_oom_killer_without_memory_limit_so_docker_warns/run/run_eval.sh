#!/bin/bash
# weekly eval; collect runs in the eval container (platform template flags)
cd /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/healthy_docker_collect_container_template_disables_oom_killer_without_memory_limit_so_docker_warns/run
/work/wt-h69/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h69-collect-52135 --oom-kill-disable --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h69/.venv:/work/wt-h69/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h69:/work/wt-h69:ro -v /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/healthy_docker_collect_container_template_disables_oom_killer_without_memory_limit_so_docker_warns/run:/work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/healthy_docker_collect_container_template_disables_oom_killer_without_memory_limit_so_docker_warns/run -e PYTHONPATH=/work/wt-h69 -w /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/healthy_docker_collect_container_template_disables_oom_killer_without_memory_limit_so_docker_warns/run gym-pipeline/base:bookworm \
  /work/wt-h69/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38635/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h69/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
