#!/bin/bash
# weekly eval; collect runs in the eval container
cd /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/healthy_docker_run_script_probes_gpu_with_nvidia_smi_in_the_cpu_base_image_so_docker_reports_executable_file_not_found/run
echo '== GPU probe'
docker run --rm --name h111-gpuprobe-33885 gym-pipeline/base:bookworm nvidia-smi || echo "no GPU visible (exit $?): collect on CPU"
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h111/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h111-collect-43769  --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h111/.venv:/work/h111/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h111:/work/h111:ro -v /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/healthy_docker_run_script_probes_gpu_with_nvidia_smi_in_the_cpu_base_image_so_docker_reports_executable_file_not_found/run:/work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/healthy_docker_run_script_probes_gpu_with_nvidia_smi_in_the_cpu_base_image_so_docker_reports_executable_file_not_found/run -e PYTHONPATH=/work/h111 -w /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/healthy_docker_run_script_probes_gpu_with_nvidia_smi_in_the_cpu_base_image_so_docker_reports_executable_file_not_found/run gym-pipeline/base:bookworm \
  /work/h111/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40051/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h111/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
