#!/bin/bash
cd /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/healthy_taskfolder_test_sh_optional_config_lint_prints_caught_python_traceback_after_reward/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h66/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/healthy_taskfolder_test_sh_optional_config_lint_prints_caught_python_traceback_after_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h66/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/healthy_taskfolder_test_sh_optional_config_lint_prints_caught_python_traceback_after_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39799/v1 --model-name sim-policy
echo '== profile'
/work/wt-h66/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/healthy_taskfolder_test_sh_optional_config_lint_prints_caught_python_traceback_after_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
