#!/bin/bash
cd /work/wt-h33/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_fetches_taskset_version_from_unresolvable_host/run
curl -fsS http://tasksets.internal.example/weekly/VERSION || echo '(taskset version unknown)'
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h33/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h33/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_fetches_taskset_version_from_unresolvable_host/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h33/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h33/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_fetches_taskset_version_from_unresolvable_host/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:35557/v1 --model-name sim-policy
echo '== profile'
/work/wt-h33/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h33/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_fetches_taskset_version_from_unresolvable_host/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
