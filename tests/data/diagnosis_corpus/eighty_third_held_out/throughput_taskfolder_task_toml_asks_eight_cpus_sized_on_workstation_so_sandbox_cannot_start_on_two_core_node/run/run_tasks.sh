#!/bin/bash
cd /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/throughput_taskfolder_task_toml_asks_eight_cpus_sized_on_workstation_so_sandbox_cannot_start_on_two_core_node/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h83/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/throughput_taskfolder_task_toml_asks_eight_cpus_sized_on_workstation_so_sandbox_cannot_start_on_two_core_node/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h83/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/throughput_taskfolder_task_toml_asks_eight_cpus_sized_on_workstation_so_sandbox_cannot_start_on_two_core_node/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:43775/v1 --model-name sim-policy
echo '== profile'
/work/wt-h83/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/throughput_taskfolder_task_toml_asks_eight_cpus_sized_on_workstation_so_sandbox_cannot_start_on_two_core_node/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
