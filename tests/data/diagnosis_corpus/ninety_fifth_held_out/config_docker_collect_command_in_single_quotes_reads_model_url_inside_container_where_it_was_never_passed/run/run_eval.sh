#!/bin/bash
# weekly eval; collect runs in the team's eval container
cd /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/config_docker_collect_command_in_single_quotes_reads_model_url_inside_container_where_it_was_never_passed/run
rm -f rollouts.jsonl rollouts_failures.jsonl
MODEL_URL=http://127.0.0.1:41147/v1
echo "model server: $MODEL_URL"
/work/h95/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h95-collect-41883 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h95/.venv:/work/h95/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h95:/work/h95:ro -v /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/config_docker_collect_command_in_single_quotes_reads_model_url_inside_container_where_it_was_never_passed/run:/work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/config_docker_collect_command_in_single_quotes_reads_model_url_inside_container_where_it_was_never_passed/run -e PYTHONPATH=/work/h95 -w /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/config_docker_collect_command_in_single_quotes_reads_model_url_inside_container_where_it_was_never_passed/run gym-pipeline/base:bookworm \
  bash -c 'cd /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/config_docker_collect_command_in_single_quotes_reads_model_url_inside_container_where_it_was_never_passed/run && /work/h95/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "$MODEL_URL" --env string_match --concurrency 4'
echo "collect container exit: $?"
/work/h95/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
