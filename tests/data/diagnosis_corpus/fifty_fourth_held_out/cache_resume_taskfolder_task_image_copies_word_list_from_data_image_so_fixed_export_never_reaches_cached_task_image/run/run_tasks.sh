#!/bin/bash
cd /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/cache_resume_taskfolder_task_image_copies_word_list_from_data_image_so_fixed_export_never_reaches_cached_task_image/run
echo '== weekly taskset run (export fixed)'
echo '== materialize'
/work/wt-h54/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/cache_resume_taskfolder_task_image_copies_word_list_from_data_image_so_fixed_export_never_reaches_cached_task_image/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h54/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/cache_resume_taskfolder_task_image_copies_word_list_from_data_image_so_fixed_export_never_reaches_cached_task_image/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:41399/v1 --model-name sim-policy
echo '== profile'
/work/wt-h54/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/cache_resume_taskfolder_task_image_copies_word_list_from_data_image_so_fixed_export_never_reaches_cached_task_image/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
