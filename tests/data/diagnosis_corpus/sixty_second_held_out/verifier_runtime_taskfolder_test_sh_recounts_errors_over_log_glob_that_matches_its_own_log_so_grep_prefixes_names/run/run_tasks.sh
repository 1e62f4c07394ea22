#!/bin/bash
cd /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/verifier_runtime_taskfolder_test_sh_recounts_errors_over_log_glob_that_matches_its_own_log_so_grep_prefixes_names/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h62/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/verifier_runtime_taskfolder_test_sh_recounts_errors_over_log_glob_that_matches_its_own_log_so_grep_prefixes_names/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h62/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/verifier_runtime_taskfolder_test_sh_recounts_errors_over_log_glob_that_matches_its_own_log_so_grep_prefixes_names/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:44155/v1 --model-name sim-policy
echo '== profile'
/work/wt-h62/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/verifier_runtime_taskfolder_test_sh_recounts_errors_over_log_glob_that_matches_its_own_log_so_grep_prefixes_names/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
