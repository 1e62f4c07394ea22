#!/bin/bash
cd /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/cache_resume_taskfolder_dockerfile_from_build_arg_hides_rebuilt_base_so_cached_task_image_keeps_old_words/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h57/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/cache_resume_taskfolder_dockerfile_from_build_arg_hides_rebuilt_base_so_cached_task_image_keeps_old_words/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h57/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/cache_resume_taskfolder_dockerfile_from_build_arg_hides_rebuilt_base_so_cached_task_image_keeps_old_words/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:41861/v1 --model-name sim-policy
echo '== profile'
/work/wt-h57/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/cache_resume_taskfolder_dockerfile_from_build_arg_hides_rebuilt_base_so_cached_task_image_keeps_old_words/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
