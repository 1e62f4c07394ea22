#!/bin/bash
# weekly eval; collect runs in the eval container (mounts: the venv, the checkout, the run)
cd /work/wt-h76/tests/data/diagnosis_corpus/seventy_sixth_held_out/infra_docker_collect_container_mounts_the_venv_but_not_the_interpreter_its_python_symlink_points_to/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h76/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h76-collect-60277 --network host -v /work/wt-h76/.venv:/work/wt-h76/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h76:/work/wt-h76:ro -v /work/wt-h76/tests/data/diagnosis_corpus/seventy_sixth_held_out/infra_docker_collect_container_mounts_the_venv_but_not_the_interpreter_its_python_symlink_points_to/run:/work/wt-h76/tests/data/diagnosis_corpus/seventy_sixth_held_out/infra_docker_collect_container_mounts_the_venv_but_not_the_interpreter_its_python_symlink_points_to/run -e PYTHONPATH=/work/wt-h76 -w /work/wt-h76/tests/data/diagnosis_corpus/seventy_sixth_held_out/infra_docker_collect_container_mounts_the_venv_but_not_the_interpreter_its_python_symlink_points_to/run gym-pipeline/base:bookworm \
  /work/wt-h76/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36819/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h76/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
