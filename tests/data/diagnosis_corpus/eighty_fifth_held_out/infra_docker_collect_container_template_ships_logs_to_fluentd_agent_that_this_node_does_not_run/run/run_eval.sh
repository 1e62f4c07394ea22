#!/bin/bash
# weekly eval; collect runs in the team's eval container (flags from the cluster's container template)
cd /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/infra_docker_collect_container_template_ships_logs_to_fluentd_agent_that_this_node_does_not_run/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h85/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h85-collect-55197 --log-driver fluentd --log-opt fluentd-address=127.0.0.1:24224 --log-opt tag=eval.collect --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h85/.venv:/work/wt-h85/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h85:/work/wt-h85:ro -v /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/infra_docker_collect_container_template_ships_logs_to_fluentd_agent_that_this_node_does_not_run/run:/work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/infra_docker_collect_container_template_ships_logs_to_fluentd_agent_that_this_node_does_not_run/run -e PYTHONPATH=/work/wt-h85 -w /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/infra_docker_collect_container_template_ships_logs_to_fluentd_agent_that_this_node_does_not_run/run gym-pipeline/base:bookworm \
  /work/wt-h85/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34277/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h85/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
