#!/bin/bash
cd /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/healthy_taskfolder_task_toml_sandboxes_sized_at_quarter_cpu_and_128_mb_from_the_shared_cluster_quota/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h79/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/healthy_taskfolder_task_toml_sandboxes_sized_at_quarter_cpu_and_128_mb_from_the_shared_cluster_quota/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h79/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/healthy_taskfolder_task_toml_sandboxes_sized_at_quarter_cpu_and_128_mb_from_the_shared_cluster_quota/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:45481/v1 --model-name sim-policy
echo '== profile'
/work/wt-h79/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/healthy_taskfolder_task_toml_sandboxes_sized_at_quarter_cpu_and_128_mb_from_the_shared_cluster_quota/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
