#!/bin/bash
# weekly eval
cd /work/wt-h50/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_tasks_read_through_named_docker_volume_that_kept_first_weeks_copy_after_image_rebuilt/run
echo '== weekly eval'
/work/wt-h50/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h50/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:43671/v1 --env string_match --concurrency 4
/work/wt-h50/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
