#!/bin/bash
cd /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/healthy_taskfolder_test_sh_pushes_verdict_to_metrics_gateway_from_sandbox_without_network/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h62/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/healthy_taskfolder_test_sh_pushes_verdict_to_metrics_gateway_from_sandbox_without_network/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h62/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/healthy_taskfolder_test_sh_pushes_verdict_to_metrics_gateway_from_sandbox_without_network/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:46435/v1 --model-name sim-policy
echo '== profile'
/work/wt-h62/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/healthy_taskfolder_test_sh_pushes_verdict_to_metrics_gateway_from_sandbox_without_network/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
