#!/bin/bash
# weekly eval; collect runs in the eval container (team template flags)
cd /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/infra_docker_collect_container_template_mounts_volumes_from_eval_cache_container_absent_on_this_node/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h81/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h81-collect-44479 --volumes-from h81-eval-cache --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h81/.venv:/work/wt-h81/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h81:/work/wt-h81:ro -v /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/infra_docker_collect_container_template_mounts_volumes_from_eval_cache_container_absent_on_this_node/run:/work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/infra_docker_collect_container_template_mounts_volumes_from_eval_cache_container_absent_on_this_node/run -e PYTHONPATH=/work/wt-h81 -w /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/infra_docker_collect_container_template_mounts_volumes_from_eval_cache_container_absent_on_this_node/run gym-pipeline/base:bookworm \
  /work/wt-h81/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44791/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h81/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
