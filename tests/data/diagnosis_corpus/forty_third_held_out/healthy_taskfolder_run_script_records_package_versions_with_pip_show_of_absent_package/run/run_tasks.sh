#!/bin/bash
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_records_package_versions_with_pip_show_of_absent_package/run
echo '== serving stack (for the run notes)'
/work/wt-h43/.venv/bin/python -m pip show vllm 2>&1 | grep -E '^(Name|Version|WARNING)'
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h43/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h43/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_records_package_versions_with_pip_show_of_absent_package/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h43/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h43/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_records_package_versions_with_pip_show_of_absent_package/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:41239/v1 --model-name sim-policy
echo '== profile'
/work/wt-h43/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h43/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_records_package_versions_with_pip_show_of_absent_package/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
