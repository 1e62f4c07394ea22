#!/bin/bash
# weekly eval; collect runs in the team's eval image when the node has it
cd /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/healthy_docker_run_script_looks_for_teams_eval_image_tag_absent_on_this_node_and_falls_back_to_base_image/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h103/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
IMAGE=gym-pipeline/eval:2026.11
if ! docker image inspect "$IMAGE" > /dev/null; then
  echo "eval image $IMAGE not on this node, falling back to the base image"
  IMAGE=gym-pipeline/base:bookworm
fi
docker run --rm --name h103-collect-33227  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h103/.venv:/work/h103/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h103:/work/h103:ro -v /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/healthy_docker_run_script_looks_for_teams_eval_image_tag_absent_on_this_node_and_falls_back_to_base_image/run:/work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/healthy_docker_run_script_looks_for_teams_eval_image_tag_absent_on_this_node_and_falls_back_to_base_image/run -e PYTHONPATH=/work/h103 -w /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/healthy_docker_run_script_looks_for_teams_eval_image_tag_absent_on_this_node_and_falls_back_to_base_image/run "$IMAGE" \
  /work/h103/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33037/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h103/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
