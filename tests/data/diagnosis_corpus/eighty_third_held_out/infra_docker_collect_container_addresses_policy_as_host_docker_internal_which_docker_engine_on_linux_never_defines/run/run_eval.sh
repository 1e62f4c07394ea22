#!/bin/bash
# weekly eval; collect runs in the eval container (script written on a laptop with Docker Desktop)
cd /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/infra_docker_collect_container_addresses_policy_as_host_docker_internal_which_docker_engine_on_linux_never_defines/run
rm -f rollouts.jsonl rollouts_failures.jsonl
PORT=46875   # this week's policy server, on this machine
MODEL_URL=http://host.docker.internal:$PORT/v1
/work/wt-h83/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
timeout 240 docker run --rm --name h83-collect-35429 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h83/.venv:/work/wt-h83/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h83:/work/wt-h83:ro -v /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/infra_docker_collect_container_addresses_policy_as_host_docker_internal_which_docker_engine_on_linux_never_defines/run:/work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/infra_docker_collect_container_addresses_policy_as_host_docker_internal_which_docker_engine_on_linux_never_defines/run -e PYTHONPATH=/work/wt-h83 -w /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/infra_docker_collect_container_addresses_policy_as_host_docker_internal_which_docker_engine_on_linux_never_defines/run gym-pipeline/base:bookworm \
  /work/wt-h83/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \
  --model-url $MODEL_URL --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h83/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
