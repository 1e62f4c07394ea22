#!/bin/bash
# weekly eval: rebuild the prep image (it fetches this week's sheet), then evaluate
cd /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/cache_resume_docker_build_layer_cache_reuses_sheet_fetch_step_so_prep_image_keeps_last_weeks_labels/run
docker build --network host -t h66-weekly-prep-48465:latest prep_image
docker run --rm --network none h66-weekly-prep-48465:latest cat /opt/prep/tasks.jsonl > tasks.jsonl
echo "tasks: $(wc -l < tasks.jsonl)"
/work/wt-h66/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h66/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:32999/v1 --env string_match --concurrency 4
/work/wt-h66/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
