#!/bin/bash
# weekly eval; collect runs in a container (the node's Python is not the eval's)
cd /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/infra_docker_collect_container_run_as_unprivileged_user_from_hardening_template_cannot_read_mounted_python/run
/work/wt-h58/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
# container flags from the team's launcher template (security team's hardening)
DOCKER_FLAGS="--user 65534:65534 --cap-drop ALL --security-opt no-new-privileges"
docker run --rm $DOCKER_FLAGS --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h58/.venv:/work/wt-h58/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h58:/work/wt-h58:ro -v /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/infra_docker_collect_container_run_as_unprivileged_user_from_hardening_template_cannot_read_mounted_python/run:/work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/infra_docker_collect_container_run_as_unprivileged_user_from_hardening_template_cannot_read_mounted_python/run -e PYTHONPATH=/work/wt-h58 -w /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/infra_docker_collect_container_run_as_unprivileged_user_from_hardening_template_cannot_read_mounted_python/run gym-pipeline/base:bookworm \
  /work/wt-h58/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44189/v1 --env string_match --concurrency 4
/work/wt-h58/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
