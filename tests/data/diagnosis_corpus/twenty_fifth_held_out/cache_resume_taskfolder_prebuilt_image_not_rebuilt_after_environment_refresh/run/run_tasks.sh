#!/bin/bash
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/cache_resume_taskfolder_prebuilt_image_not_rebuilt_after_environment_refresh/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h25/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h25/tests/data/diagnosis_corpus/held_out/cache_resume_taskfolder_prebuilt_image_not_rebuilt_after_environment_refresh/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h25/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h25/tests/data/diagnosis_corpus/held_out/cache_resume_taskfolder_prebuilt_image_not_rebuilt_after_environment_refresh/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39477/v1 --model-name sim-policy
echo '== profile'
/work/wt-h25/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h25/tests/data/diagnosis_corpus/held_out/cache_resume_taskfolder_prebuilt_image_not_rebuilt_after_environment_refresh/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
