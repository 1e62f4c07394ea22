#!/bin/bash
cd /work/wt-h23/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_pull_of_unreachable_registry_image/run
echo '== refreshing the tools image'
timeout 60 docker pull registry.corp.internal:5000/evals/tools:latest || echo 'could not refresh tools image'
echo '== materialize'
/work/wt-h23/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h23/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_pull_of_unreachable_registry_image/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h23/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h23/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_pull_of_unreachable_registry_image/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:36149/v1 --model-name sim-policy
echo '== profile'
/work/wt-h23/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h23/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_pull_of_unreachable_registry_image/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
