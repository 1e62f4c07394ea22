#!/bin/bash
# weekly eval; collect runs in the eval container (hardened template flags)
cd /work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/healthy_docker_collect_container_template_sets_ipc_none_which_collect_never_needs/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h75/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h75-collect-33581 --ipc none --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h75/.venv:/work/wt-h75/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h75:/work/wt-h75:ro -v /work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/healthy_docker_collect_container_template_sets_ipc_none_which_collect_never_needs/run:/work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/healthy_docker_collect_container_template_sets_ipc_none_which_collect_never_needs/run -e PYTHONPATH=/work/wt-h75 -w /work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/healthy_docker_collect_container_template_sets_ipc_none_which_collect_never_needs/run gym-pipeline/base:bookworm \
  /work/wt-h75/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39763/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h75/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
