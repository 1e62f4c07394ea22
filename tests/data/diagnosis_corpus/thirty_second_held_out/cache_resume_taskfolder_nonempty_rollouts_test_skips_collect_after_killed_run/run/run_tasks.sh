#!/bin/bash
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/cache_resume_taskfolder_nonempty_rollouts_test_skips_collect_after_killed_run/run
echo '== nightly taskset run'
echo '== materialize'
/work/wt-h32/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h32/tests/data/diagnosis_corpus/held_out/cache_resume_taskfolder_nonempty_rollouts_test_skips_collect_after_killed_run/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
if [ -s rollouts.jsonl ]; then echo 'rollouts.jsonl already there: collect skipped'; else /work/wt-h32/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h32/tests/data/diagnosis_corpus/held_out/cache_resume_taskfolder_nonempty_rollouts_test_skips_collect_after_killed_run/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:34507/v1 --model-name sim-policy; fi
echo '== profile'
/work/wt-h32/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h32/tests/data/diagnosis_corpus/held_out/cache_resume_taskfolder_nonempty_rollouts_test_skips_collect_after_killed_run/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
