#!/bin/bash
# weekly eval
cd /work/wt-h48/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_gunzip_keeps_last_weeks_unpacked_tasks_because_it_never_overwrites_without_force/run
echo '== weekly eval'
# this week's tasks from the data team (compressed); unpack them next to the archive
gunzip -k string_match.jsonl.gz
echo "$(wc -l < string_match.jsonl) tasks"
/work/wt-h48/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h48/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:43535/v1 --env string_match --concurrency 4
/work/wt-h48/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
