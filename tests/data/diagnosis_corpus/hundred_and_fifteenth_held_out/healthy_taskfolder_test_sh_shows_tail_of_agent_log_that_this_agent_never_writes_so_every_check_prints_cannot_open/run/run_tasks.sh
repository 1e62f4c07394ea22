#!/bin/bash
cd /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/healthy_taskfolder_test_sh_shows_tail_of_agent_log_that_this_agent_never_writes_so_every_check_prints_cannot_open/run
echo '== weekly taskset run'
echo '== materialize'
/work/h115/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/healthy_taskfolder_test_sh_shows_tail_of_agent_log_that_this_agent_never_writes_so_every_check_prints_cannot_open/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h115/.venv/bin/gym-pipeline stage collect --sweep-config /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/healthy_taskfolder_test_sh_shows_tail_of_agent_log_that_this_agent_never_writes_so_every_check_prints_cannot_open/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:42173/v1 --model-name sim-policy
echo '== profile'
/work/h115/.venv/bin/gym-pipeline stage profile --sweep-config /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/healthy_taskfolder_test_sh_shows_tail_of_agent_log_that_this_agent_never_writes_so_every_check_prints_cannot_open/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
