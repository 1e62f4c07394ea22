#!/bin/bash
# weekly eval; collect runs in the eval container (flags from the load-test template)
cd /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/infra_docker_collect_container_template_sets_port_range_sysctl_that_runc_refuses_under_host_networking/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h73/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h73-collect-53601 --sysctl net.ipv4.ip_local_port_range='1024 65000' --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h73/.venv:/work/wt-h73/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h73:/work/wt-h73:ro -v /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/infra_docker_collect_container_template_sets_port_range_sysctl_that_runc_refuses_under_host_networking/run:/work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/infra_docker_collect_container_template_sets_port_range_sysctl_that_runc_refuses_under_host_networking/run -e PYTHONPATH=/work/wt-h73 -w /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/infra_docker_collect_container_template_sets_port_range_sysctl_that_runc_refuses_under_host_networking/run gym-pipeline/base:bookworm \
  /work/wt-h73/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39855/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h73/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
