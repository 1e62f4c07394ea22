#!/bin/bash
# weekly eval; collect runs in the team's eval container (flags from the shared container template)
cd /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/healthy_docker_collect_container_template_sets_blkio_weight_that_this_kernel_discards_with_a_warning/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h91/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h91-collect-47865 --blkio-weight 300 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h91/.venv:/work/wt-h91/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h91:/work/wt-h91:ro -v /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/healthy_docker_collect_container_template_sets_blkio_weight_that_this_kernel_discards_with_a_warning/run:/work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/healthy_docker_collect_container_template_sets_blkio_weight_that_this_kernel_discards_with_a_warning/run -e PYTHONPATH=/work/wt-h91 -w /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/healthy_docker_collect_container_template_sets_blkio_weight_that_this_kernel_discards_with_a_warning/run gym-pipeline/base:bookworm \
  /work/wt-h91/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36415/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h91/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
