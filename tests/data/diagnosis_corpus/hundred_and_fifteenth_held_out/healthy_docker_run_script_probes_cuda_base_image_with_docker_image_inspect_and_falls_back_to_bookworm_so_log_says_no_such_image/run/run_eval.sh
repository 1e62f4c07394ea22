#!/bin/bash
# weekly eval; collect runs in the eval container (GPU image when present)
cd /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/healthy_docker_run_script_probes_cuda_base_image_with_docker_image_inspect_and_falls_back_to_bookworm_so_log_says_no_such_image/run
echo '== which base image does this node have?'
if docker image inspect gym-pipeline/base:bookworm-cuda12 > /dev/null; then
  echo 'GPU image present (not needed for string_match)'
else
  echo 'no GPU image on this node: using gym-pipeline/base:bookworm'
fi
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h115/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h115-collect-56963  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h115/.venv:/work/h115/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h115:/work/h115:ro -v /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/healthy_docker_run_script_probes_cuda_base_image_with_docker_image_inspect_and_falls_back_to_bookworm_so_log_says_no_such_image/run:/work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/healthy_docker_run_script_probes_cuda_base_image_with_docker_image_inspect_and_falls_back_to_bookworm_so_log_says_no_such_image/run -e PYTHONPATH=/work/h115 -w /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/healthy_docker_run_script_probes_cuda_base_image_with_docker_image_inspect_and_falls_back_to_bookworm_so_log_says_no_such_image/run gym-pipeline/base:bookworm \
  /work/h115/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40919/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h115/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
