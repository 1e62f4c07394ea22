#!/bin/bash
# weekly eval; collect runs in the eval container
cd /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/healthy_docker_run_script_removes_collect_container_that_its_rm_flag_already_removed_so_docker_says_no_such_container/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h71/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h71-collect-42133  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h71/.venv:/work/wt-h71/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h71:/work/wt-h71:ro -v /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/healthy_docker_run_script_removes_collect_container_that_its_rm_flag_already_removed_so_docker_says_no_such_container/run:/work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/healthy_docker_run_script_removes_collect_container_that_its_rm_flag_already_removed_so_docker_says_no_such_container/run -e PYTHONPATH=/work/wt-h71 -w /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/healthy_docker_run_script_removes_collect_container_that_its_rm_flag_already_removed_so_docker_says_no_such_container/run gym-pipeline/base:bookworm \
  /work/wt-h71/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44857/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
docker rm h71-collect-42133   # clean up, to be sure
/work/wt-h71/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
