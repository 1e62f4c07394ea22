#!/bin/bash
cd /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/verifier_runtime_taskfolder_test_sh_escapes_exclamation_mark_of_expected_greeting_against_history_expansion_so_backslash_stays_in_it/run
echo '== weekly taskset run'
echo '== materialize'
/work/h111/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/verifier_runtime_taskfolder_test_sh_escapes_exclamation_mark_of_expected_greeting_against_history_expansion_so_backslash_stays_in_it/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h111/.venv/bin/gym-pipeline stage collect --sweep-config /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/verifier_runtime_taskfolder_test_sh_escapes_exclamation_mark_of_expected_greeting_against_history_expansion_so_backslash_stays_in_it/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:46251/v1 --model-name sim-policy
echo '== profile'
/work/h111/.venv/bin/gym-pipeline stage profile --sweep-config /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/verifier_runtime_taskfolder_test_sh_escapes_exclamation_mark_of_expected_greeting_against_history_expansion_so_backslash_stays_in_it/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
