#!/bin/bash
# weekly eval: data step and collect in the eval container, profile on the node
cd /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/config_docker_eval_container_mounts_output_with_relative_path_so_results_go_to_named_volume/run
docker run --rm --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h62/.venv:/work/wt-h62/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h62:/work/wt-h62:ro -v /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/config_docker_eval_container_mounts_output_with_relative_path_so_results_go_to_named_volume/run/string_match.jsonl:/data/tasks.jsonl:ro \
  -v eval-out:/results -e PYTHONPATH=/work/wt-h62 gym-pipeline/base:bookworm bash -c "\
  /work/wt-h62/.venv/bin/python -m gym_pipeline.cli materialize --input /data/tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output /results/rollouts_materialized_inputs.jsonl && \
  /work/wt-h62/.venv/bin/python -m gym_pipeline.cli collect --inputs /results/rollouts_materialized_inputs.jsonl --output /results/rollouts.jsonl --model-url http://127.0.0.1:33483/v1 --env string_match --concurrency 4"
ls -la eval-out/
/work/wt-h62/.venv/bin/gym-pipeline profile --inputs eval-out/rollouts_materialized_inputs.jsonl --rollouts eval-out/rollouts.jsonl
