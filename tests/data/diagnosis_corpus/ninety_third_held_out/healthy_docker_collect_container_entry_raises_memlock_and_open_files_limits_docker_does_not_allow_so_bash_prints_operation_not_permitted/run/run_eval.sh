#!/bin/bash
# weekly eval; collect runs in the team's eval container, whose entry command comes from the training containers' template
cd /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/healthy_docker_collect_container_entry_raises_memlock_and_open_files_limits_docker_does_not_allow_so_bash_prints_operation_not_permitted/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h93/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h93-collect-57925 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h93/.venv:/work/h93/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h93:/work/h93:ro -v /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/healthy_docker_collect_container_entry_raises_memlock_and_open_files_limits_docker_does_not_allow_so_bash_prints_operation_not_permitted/run:/work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/healthy_docker_collect_container_entry_raises_memlock_and_open_files_limits_docker_does_not_allow_so_bash_prints_operation_not_permitted/run -e PYTHONPATH=/work/h93 -w /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/healthy_docker_collect_container_entry_raises_memlock_and_open_files_limits_docker_does_not_allow_so_bash_prints_operation_not_permitted/run gym-pipeline/base:bookworm \
  bash -c 'ulimit -l unlimited; ulimit -n 1048576; echo "open files limit: $(ulimit -n)"; exec "$0" "$@"' \
  /work/h93/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37397/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h93/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
