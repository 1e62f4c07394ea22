#!/bin/bash
# weekly eval; collect runs in the team's eval container (flags from the inference nodes' container template)
cd /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/infra_docker_collect_container_template_asks_realtime_cpu_budget_that_this_nodes_docker_cgroup_does_not_have/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h91/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h91-collect-45627 --cpu-rt-runtime 950000 --ulimit rtprio=99 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h91/.venv:/work/wt-h91/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h91:/work/wt-h91:ro -v /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/infra_docker_collect_container_template_asks_realtime_cpu_budget_that_this_nodes_docker_cgroup_does_not_have/run:/work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/infra_docker_collect_container_template_asks_realtime_cpu_budget_that_this_nodes_docker_cgroup_does_not_have/run -e PYTHONPATH=/work/wt-h91 -w /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/infra_docker_collect_container_template_asks_realtime_cpu_budget_that_this_nodes_docker_cgroup_does_not_have/run gym-pipeline/base:bookworm \
  /work/wt-h91/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34737/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h91/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
