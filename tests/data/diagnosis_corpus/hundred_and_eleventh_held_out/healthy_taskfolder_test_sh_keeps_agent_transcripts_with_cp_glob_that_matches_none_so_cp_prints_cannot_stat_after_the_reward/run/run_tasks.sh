#!/bin/bash
cd /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/healthy_taskfolder_test_sh_keeps_agent_transcripts_with_cp_glob_that_matches_none_so_cp_prints_cannot_stat_after_the_reward/run
echo '== weekly taskset run'
echo '== materialize'
/work/h111/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/healthy_taskfolder_test_sh_keeps_agent_transcripts_with_cp_glob_that_matches_none_so_cp_prints_cannot_stat_after_the_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h111/.venv/bin/gym-pipeline stage collect --sweep-config /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/healthy_taskfolder_test_sh_keeps_agent_transcripts_with_cp_glob_that_matches_none_so_cp_prints_cannot_stat_after_the_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:40449/v1 --model-name sim-policy
echo '== profile'
/work/h111/.venv/bin/gym-pipeline stage profile --sweep-config /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/healthy_taskfolder_test_sh_keeps_agent_transcripts_with_cp_glob_that_matches_none_so_cp_prints_cannot_stat_after_the_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
