#!/bin/bash
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_team_docker_network_left_behind_on_the_old_cluster/run
echo '== weekly taskset run'
# on the old cluster the sandboxes used the team's eval-net network: show it when it is there
docker network inspect eval-net --format '{{.Name}} {{.Driver}}' || echo '(no eval-net here: default settings)'
echo '== materialize'
/work/wt-h46/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_team_docker_network_left_behind_on_the_old_cluster/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h46/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_team_docker_network_left_behind_on_the_old_cluster/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:34439/v1 --model-name sim-policy
echo '== profile'
/work/wt-h46/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_team_docker_network_left_behind_on_the_old_cluster/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
