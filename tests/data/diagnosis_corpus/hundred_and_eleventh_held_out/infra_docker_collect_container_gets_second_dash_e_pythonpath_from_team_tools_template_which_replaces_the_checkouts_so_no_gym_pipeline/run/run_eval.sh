#!/bin/bash
# weekly eval; collect runs in the eval container (team tools template)
cd /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/infra_docker_collect_container_gets_second_dash_e_pythonpath_from_team_tools_template_which_replaces_the_checkouts_so_no_gym_pipeline/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h111/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h111-collect-58661  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h111/.venv:/work/h111/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h111:/work/h111:ro -v /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/infra_docker_collect_container_gets_second_dash_e_pythonpath_from_team_tools_template_which_replaces_the_checkouts_so_no_gym_pipeline/run:/work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/infra_docker_collect_container_gets_second_dash_e_pythonpath_from_team_tools_template_which_replaces_the_checkouts_so_no_gym_pipeline/run -e PYTHONPATH=/work/h111 -w /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/infra_docker_collect_container_gets_second_dash_e_pythonpath_from_team_tools_template_which_replaces_the_checkouts_so_no_gym_pipeline/run -e PYTHONPATH=/opt/team-tools/lib gym-pipeline/base:bookworm \
  /work/h111/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38909/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h111/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
