#!/bin/bash
# weekly eval; prep runs in a container (hardened template flags)
cd /work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/infra_docker_prep_container_template_sets_ipc_none_so_prep_multiprocessing_pool_finds_no_dev_shm/run
docker run --rm --name h75-prep-49327 --ipc none --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h75/.venv:/work/wt-h75/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h75:/work/wt-h75:ro -v /work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/infra_docker_prep_container_template_sets_ipc_none_so_prep_multiprocessing_pool_finds_no_dev_shm/run:/work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/infra_docker_prep_container_template_sets_ipc_none_so_prep_multiprocessing_pool_finds_no_dev_shm/run -e PYTHONPATH=/work/wt-h75 -w /work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/infra_docker_prep_container_template_sets_ipc_none_so_prep_multiprocessing_pool_finds_no_dev_shm/run gym-pipeline/base:bookworm \
  /work/wt-h75/.venv/bin/python prep.py
echo "prep container exit: $?"
/work/wt-h75/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h75/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40523/v1 --env string_match --concurrency 4
/work/wt-h75/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
