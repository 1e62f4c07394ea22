#!/bin/bash
# weekly eval
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_noclobber_keeps_last_weeks_tasks_file/run
source shell_settings.sh
python3 prep_data.py export.jsonl > tasks.jsonl
/work/wt-h26/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h26/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45925/v1 --env string_match --concurrency 4
/work/wt-h26/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
