#!/bin/bash
# weekly eval; collect runs in the eval container (user from the shared CI container template)
cd /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/infra_docker_collect_container_runs_as_uid_1000_of_shared_ci_template_which_cannot_use_root_owned_eval_files/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h99/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h99-collect-56819 --user 1000:1000 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h99/.venv:/work/h99/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h99:/work/h99:ro -v /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/infra_docker_collect_container_runs_as_uid_1000_of_shared_ci_template_which_cannot_use_root_owned_eval_files/run:/work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/infra_docker_collect_container_runs_as_uid_1000_of_shared_ci_template_which_cannot_use_root_owned_eval_files/run -e PYTHONPATH=/work/h99 -w /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/infra_docker_collect_container_runs_as_uid_1000_of_shared_ci_template_which_cannot_use_root_owned_eval_files/run gym-pipeline/base:bookworm \
  /work/h99/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41761/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h99/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
