#!/bin/bash
# weekly eval; collect runs in the eval container (limits from the sidecar template)
cd /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/throughput_resources_docker_collect_container_capped_at_cpus_0_05_from_sidecar_template_so_collect_overruns_the_20_s_step_timeout/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/h109/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
timeout 20 docker run --rm --name h109-collect-60131 --init --cpus 0.05 --memory 512m --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/h109/.venv:/work/h109/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/h109:/work/h109:ro -v /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/throughput_resources_docker_collect_container_capped_at_cpus_0_05_from_sidecar_template_so_collect_overruns_the_20_s_step_timeout/run:/work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/throughput_resources_docker_collect_container_capped_at_cpus_0_05_from_sidecar_template_so_collect_overruns_the_20_s_step_timeout/run -e PYTHONPATH=/work/h109 -w /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/throughput_resources_docker_collect_container_capped_at_cpus_0_05_from_sidecar_template_so_collect_overruns_the_20_s_step_timeout/run gym-pipeline/base:bookworm \
  /work/h109/.venv/bin/python -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38063/v1 --env string_match --concurrency 4
echo "collect container exit: $?"
/work/h109/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
