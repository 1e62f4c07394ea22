#!/bin/bash
# nightly taskset run
cd /work/wt-h22/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_script_validates_task_toml_without_toml_module/run
echo '== validating task.toml files'
for f in tasks/*/task.toml; do
  python3 -c 'import sys, toml; toml.load(sys.argv[1])' "$f" || echo "could not validate $f"
done
echo '== materialize'
/work/wt-h22/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h22/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_script_validates_task_toml_without_toml_module/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h22/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h22/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_script_validates_task_toml_without_toml_module/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:42329/v1 --model-name sim-policy
echo '== profile'
/work/wt-h22/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h22/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_script_validates_task_toml_without_toml_module/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
