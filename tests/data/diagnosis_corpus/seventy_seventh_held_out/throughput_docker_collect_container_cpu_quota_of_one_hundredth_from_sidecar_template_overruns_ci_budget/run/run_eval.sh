#!/bin/bash
# weekly eval; collect runs in the eval container (sidecar template flags)
cd /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/throughput_docker_collect_container_cpu_quota_of_one_hundredth_from_sidecar_template_overruns_ci_budget/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h77/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
docker run --rm --name h77-collect-56935 --cpus 0.01 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h77/.venv:/work/wt-h77/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h77:/work/wt-h77:ro -v /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/throughput_docker_collect_container_cpu_quota_of_one_hundredth_from_sidecar_template_overruns_ci_budget/run:/work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/throughput_docker_collect_container_cpu_quota_of_one_hundredth_from_sidecar_template_overruns_ci_budget/run -e PYTHONPATH=/work/wt-h77 -w /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/throughput_docker_collect_container_cpu_quota_of_one_hundredth_from_sidecar_template_overruns_ci_budget/run gym-pipeline/base:bookworm \
  /work/wt-h77/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:43425/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/wt-h77/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
