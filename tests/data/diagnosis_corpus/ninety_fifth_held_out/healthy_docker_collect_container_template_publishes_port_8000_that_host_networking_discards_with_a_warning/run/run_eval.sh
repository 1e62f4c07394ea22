#!/bin/bash
# weekly eval; collect runs in the team's eval container (flags from the serving containers' template)
cd /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/healthy_docker_collect_container_template_publishes_port_8000_that_host_networking_discards_with_a_warning/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h95/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h95-collect-57295 -p 8000:8000 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h95/.venv:/work/h95/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h95:/work/h95:ro -v /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/healthy_docker_collect_container_template_publishes_port_8000_that_host_networking_discards_with_a_warning/run:/work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/healthy_docker_collect_container_template_publishes_port_8000_that_host_networking_discards_with_a_warning/run -e PYTHONPATH=/work/h95 -w /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/healthy_docker_collect_container_template_publishes_port_8000_that_host_networking_discards_with_a_warning/run gym-pipeline/base:bookworm \
  /work/h95/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42611/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h95/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
