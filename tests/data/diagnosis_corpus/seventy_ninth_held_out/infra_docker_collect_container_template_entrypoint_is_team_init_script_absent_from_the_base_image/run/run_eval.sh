#!/bin/bash
# weekly eval; collect runs in the eval container (team template flags)
cd /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/infra_docker_collect_container_template_entrypoint_is_team_init_script_absent_from_the_base_image/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h79/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h79-collect-53729 --entrypoint /usr/local/bin/team-init.sh --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h79/.venv:/work/wt-h79/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h79:/work/wt-h79:ro -v /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/infra_docker_collect_container_template_entrypoint_is_team_init_script_absent_from_the_base_image/run:/work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/infra_docker_collect_container_template_entrypoint_is_team_init_script_absent_from_the_base_image/run -e PYTHONPATH=/work/wt-h79 -w /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/infra_docker_collect_container_template_entrypoint_is_team_init_script_absent_from_the_base_image/run gym-pipeline/base:bookworm \
  /work/wt-h79/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:46115/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h79/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
