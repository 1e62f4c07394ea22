#!/bin/bash
cd /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/throughput_taskfolder_task_toml_memory_mb_given_in_gigabytes_so_sort_of_refreshed_corpus_is_oom_killed/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h54/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/throughput_taskfolder_task_toml_memory_mb_given_in_gigabytes_so_sort_of_refreshed_corpus_is_oom_killed/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h54/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/throughput_taskfolder_task_toml_memory_mb_given_in_gigabytes_so_sort_of_refreshed_corpus_is_oom_killed/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:38143/v1 --model-name sim-policy
echo '== profile'
/work/wt-h54/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/throughput_taskfolder_task_toml_memory_mb_given_in_gigabytes_so_sort_of_refreshed_corpus_is_oom_killed/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
