#!/bin/bash
cd /work/wt-h50/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_records_docker_engine_settings_for_capacity_notes/run
echo '== weekly taskset run'
# the engine's settings, for the sandbox capacity notes
docker info 2>&1 | grep -E 'Server Version|Storage Driver|Cgroup|CPUs|Total Memory|Docker Root Dir|WARNING'
echo '== materialize'
/work/wt-h50/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h50/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_records_docker_engine_settings_for_capacity_notes/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h50/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h50/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_records_docker_engine_settings_for_capacity_notes/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:36369/v1 --model-name sim-policy
echo '== profile'
/work/wt-h50/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h50/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_records_docker_engine_settings_for_capacity_notes/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
