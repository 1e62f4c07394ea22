#!/bin/bash
cd /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/healthy_taskfolder_test_sh_drops_page_cache_like_the_benchmark_verifiers_so_proc_sys_reports_read_only_file_system/run
echo '== weekly taskset run'
echo '== materialize'
/work/h113/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/healthy_taskfolder_test_sh_drops_page_cache_like_the_benchmark_verifiers_so_proc_sys_reports_read_only_file_system/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h113/.venv/bin/gym-pipeline stage collect --sweep-config /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/healthy_taskfolder_test_sh_drops_page_cache_like_the_benchmark_verifiers_so_proc_sys_reports_read_only_file_system/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39427/v1 --model-name sim-policy
echo '== profile'
/work/h113/.venv/bin/gym-pipeline stage profile --sweep-config /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/healthy_taskfolder_test_sh_drops_page_cache_like_the_benchmark_verifiers_so_proc_sys_reports_read_only_file_system/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
