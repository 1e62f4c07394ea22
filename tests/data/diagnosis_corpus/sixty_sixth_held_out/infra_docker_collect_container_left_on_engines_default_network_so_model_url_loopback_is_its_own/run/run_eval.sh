#!/bin/bash
# weekly eval; the collect runs in the eval container (platform run template)
cd /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/infra_docker_collect_container_left_on_engines_default_network_so_model_url_loopback_is_its_own/run
echo "model server on the node: $(curl -s http://127.0.0.1:33201/v1/models)"
/work/wt-h66/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h66-collect-45943 -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h66/.venv:/work/wt-h66/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h66:/work/wt-h66:ro -v /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/infra_docker_collect_container_left_on_engines_default_network_so_model_url_loopback_is_its_own/run:/work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/infra_docker_collect_container_left_on_engines_default_network_so_model_url_loopback_is_its_own/run -e PYTHONPATH=/work/wt-h66 -w /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/infra_docker_collect_container_left_on_engines_default_network_so_model_url_loopback_is_its_own/run gym-pipeline/base:bookworm \
  /work/wt-h66/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33201/v1 --env string_match --concurrency 4
/work/wt-h66/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
