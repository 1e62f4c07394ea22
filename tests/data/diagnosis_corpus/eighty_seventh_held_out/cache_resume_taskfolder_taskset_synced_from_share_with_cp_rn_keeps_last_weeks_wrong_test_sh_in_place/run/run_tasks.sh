#!/bin/bash
cd /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/cache_resume_taskfolder_taskset_synced_from_share_with_cp_rn_keeps_last_weeks_wrong_test_sh_in_place/run
echo '== refresh the taskset from the share (keep local edits)'
cp -rnv /tmp/ho-cache_resume_taskfol-t3gvqka8/share/tasks/. tasks/ || true
grep -H 'test "' tasks/top-word/tests/test.sh
echo '== materialize'
/work/wt-h87/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/cache_resume_taskfolder_taskset_synced_from_share_with_cp_rn_keeps_last_weeks_wrong_test_sh_in_place/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h87/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/cache_resume_taskfolder_taskset_synced_from_share_with_cp_rn_keeps_last_weeks_wrong_test_sh_in_place/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:35443/v1 --model-name sim-policy
echo '== profile'
/work/wt-h87/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/cache_resume_taskfolder_taskset_synced_from_share_with_cp_rn_keeps_last_weeks_wrong_test_sh_in_place/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
