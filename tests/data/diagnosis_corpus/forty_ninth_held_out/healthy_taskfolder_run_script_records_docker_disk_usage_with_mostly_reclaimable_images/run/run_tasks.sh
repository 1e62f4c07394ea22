#!/bin/bash
cd /work/wt-h49/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_records_docker_disk_usage_with_mostly_reclaimable_images/run
echo '== weekly taskset run'
# how much the sandboxes take on this node, for the capacity notes
docker system df
echo '== materialize'
/work/wt-h49/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h49/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_records_docker_disk_usage_with_mostly_reclaimable_images/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h49/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h49/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_records_docker_disk_usage_with_mostly_reclaimable_images/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:45129/v1 --model-name sim-policy
echo '== profile'
/work/wt-h49/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h49/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_records_docker_disk_usage_with_mostly_reclaimable_images/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
