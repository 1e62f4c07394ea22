#!/bin/bash
# weekly eval of the labelling team's drop (drop/tasks_latest.tar.gz holds string_match.jsonl)
cd /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/cache_resume_builtin_weekly_drop_unpacked_with_tar_skip_old_files_keeps_last_weeks_dataset_file/run
rm -f rollouts.jsonl rollouts_failures.jsonl
echo "== unpacking this week's drop: $(tar -tzvf drop/tasks_latest.tar.gz)"
# --skip-old-files: never clobber a file someone here edited by hand
tar --skip-old-files -xzf drop/tasks_latest.tar.gz
echo "questions: $(wc -l < string_match.jsonl)"
/work/wt-h69/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h69/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35775/v1 --env string_match --concurrency 4
/work/wt-h69/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
