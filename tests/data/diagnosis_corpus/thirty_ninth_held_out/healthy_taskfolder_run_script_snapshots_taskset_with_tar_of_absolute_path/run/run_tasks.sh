#!/bin/bash
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_snapshots_taskset_with_tar_of_absolute_path/run
tar czf tasks_snapshot.tgz $PWD/tasks
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h39/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h39/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_snapshots_taskset_with_tar_of_absolute_path/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h39/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h39/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_snapshots_taskset_with_tar_of_absolute_path/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:41045/v1 --model-name sim-policy
echo '== profile'
/work/wt-h39/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h39/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_snapshots_taskset_with_tar_of_absolute_path/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
