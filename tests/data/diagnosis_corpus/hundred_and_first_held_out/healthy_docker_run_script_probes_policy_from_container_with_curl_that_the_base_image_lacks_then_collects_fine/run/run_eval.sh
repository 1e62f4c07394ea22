#!/bin/bash
# weekly eval; collect runs in the eval container
cd /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/healthy_docker_run_script_probes_policy_from_container_with_curl_that_the_base_image_lacks_then_collects_fine/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h101/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
# can the eval image reach the policy?
docker run --rm --name h101-probe-56309 --network host gym-pipeline/base:bookworm curl -sf http://127.0.0.1:38331/v1/models || echo "probe from container failed (exit $?)"
docker run --rm --name h101-collect-56309  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h101/.venv:/work/h101/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h101:/work/h101:ro -v /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/healthy_docker_run_script_probes_policy_from_container_with_curl_that_the_base_image_lacks_then_collects_fine/run:/work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/healthy_docker_run_script_probes_policy_from_container_with_curl_that_the_base_image_lacks_then_collects_fine/run -e PYTHONPATH=/work/h101 -w /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/healthy_docker_run_script_probes_policy_from_container_with_curl_that_the_base_image_lacks_then_collects_fine/run gym-pipeline/base:bookworm \
  /work/h101/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38331/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h101/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
