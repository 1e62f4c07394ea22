#!/bin/bash
# weekly eval; collect runs in the team's eval container; record the image's package count for the report
cd /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/healthy_docker_run_script_records_package_count_of_eval_image_with_apt_list_which_warns_of_unstable_cli/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h97/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h97-collect-55385  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h97/.venv:/work/h97/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h97:/work/h97:ro -v /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/healthy_docker_run_script_records_package_count_of_eval_image_with_apt_list_which_warns_of_unstable_cli/run:/work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/healthy_docker_run_script_records_package_count_of_eval_image_with_apt_list_which_warns_of_unstable_cli/run -e PYTHONPATH=/work/h97 -w /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/healthy_docker_run_script_records_package_count_of_eval_image_with_apt_list_which_warns_of_unstable_cli/run gym-pipeline/base:bookworm \
  /work/h97/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40971/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
echo "eval image packages: $(docker run --rm --name h97-provenance-55385 --network none gym-pipeline/base:bookworm bash -c 'apt list --installed | wc -l')"
/work/h97/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
