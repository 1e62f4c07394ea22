#!/bin/bash
# weekly eval of the labelling sheet
cd /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/cache_resume_builtin_prep_task_store_insert_or_ignore_keeps_old_labels_of_questions_already_stored/run
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h67/.venv/bin/python prep.py
/work/wt-h67/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h67/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36313/v1 --env string_match --concurrency 4
/work/wt-h67/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
