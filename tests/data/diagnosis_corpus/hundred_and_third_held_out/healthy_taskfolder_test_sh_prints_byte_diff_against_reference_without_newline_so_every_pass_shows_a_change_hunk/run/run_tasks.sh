#!/bin/bash
cd /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/healthy_taskfolder_test_sh_prints_byte_diff_against_reference_without_newline_so_every_pass_shows_a_change_hunk/run
echo '== weekly taskset run'
echo '== materialize'
/work/h103/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/healthy_taskfolder_test_sh_prints_byte_diff_against_reference_without_newline_so_every_pass_shows_a_change_hunk/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h103/.venv/bin/gym-pipeline stage collect --sweep-config /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/healthy_taskfolder_test_sh_prints_byte_diff_against_reference_without_newline_so_every_pass_shows_a_change_hunk/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:34107/v1 --model-name sim-policy
echo '== profile'
/work/h103/.venv/bin/gym-pipeline stage profile --sweep-config /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/healthy_taskfolder_test_sh_prints_byte_diff_against_reference_without_newline_so_every_pass_shows_a_change_hunk/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
