#!/bin/bash
# weekly eval; collect runs in the eval container
cd /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/healthy_docker_run_script_cleans_stale_collect_containers_with_xargs_docker_rm_that_runs_without_names_so_docker_says_requires_at_least_1_argument/run
echo '== removing stale collect containers'
docker ps -aq --filter name=h113-collect-stale | xargs docker rm -f
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h113/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h113-collect-58151  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h113/.venv:/work/h113/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h113:/work/h113:ro -v /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/healthy_docker_run_script_cleans_stale_collect_containers_with_xargs_docker_rm_that_runs_without_names_so_docker_says_requires_at_least_1_argument/run:/work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/healthy_docker_run_script_cleans_stale_collect_containers_with_xargs_docker_rm_that_runs_without_names_so_docker_says_requires_at_least_1_argument/run -e PYTHONPATH=/work/h113 -w /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/healthy_docker_run_script_cleans_stale_collect_containers_with_xargs_docker_rm_that_runs_without_names_so_docker_says_requires_at_least_1_argument/run gym-pipeline/base:bookworm \
  /work/h113/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36989/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h113/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
