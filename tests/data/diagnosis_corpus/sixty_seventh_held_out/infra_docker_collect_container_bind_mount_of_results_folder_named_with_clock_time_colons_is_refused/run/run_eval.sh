#!/bin/bash
# weekly eval; one results folder per run, named by its start time; collect runs in the eval container
cd /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/infra_docker_collect_container_bind_mount_of_results_folder_named_with_clock_time_colons_is_refused/run
STAMP=$(date +%Y-%m-%dT%H:%M)
OUT=$PWD/results/$STAMP
mkdir -p "$OUT"
echo "results folder: $OUT"
/work/wt-h67/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output "$OUT/rollouts_materialized_inputs.jsonl"
docker run --rm --name h67-collect-49907 --network host -v /root/.pyenv/versions/3.11.7:/root/.pyenv/versions/3.11.7:ro -v /work/wt-h67/.venv:/work/wt-h67/.venv:ro -v /work/main/.venv:/work/main/.venv:ro -v /work/wt-h67:/work/wt-h67:ro -v "$OUT:/out" -e PYTHONPATH=/work/wt-h67 gym-pipeline/base:bookworm \
  /work/wt-h67/.venv/bin/python -m gym_pipeline.cli collect --inputs /out/rollouts_materialized_inputs.jsonl --output /out/rollouts.jsonl --model-url http://127.0.0.1:33045/v1 --env string_match --concurrency 4
/work/wt-h67/.venv/bin/gym-pipeline profile --inputs "$OUT/rollouts_materialized_inputs.jsonl" --rollouts "$OUT/rollouts.jsonl"
