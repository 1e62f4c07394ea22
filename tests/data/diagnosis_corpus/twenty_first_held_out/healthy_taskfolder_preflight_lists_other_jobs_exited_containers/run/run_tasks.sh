#!/bin/bash
# nightly taskset run
echo '== pre-flight'
docker ps -a --filter status=exited --format 'table {{.Names}}\t{{.Image}}\t{{.Status}}'
docker system df
echo '== materialize'
/work/wt-h21/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h21/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_lists_other_jobs_exited_containers/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h21/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h21/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_lists_other_jobs_exited_containers/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:35975/v1 --model-name sim-policy
echo '== profile'
/work/wt-h21/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h21/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_lists_other_jobs_exited_containers/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
