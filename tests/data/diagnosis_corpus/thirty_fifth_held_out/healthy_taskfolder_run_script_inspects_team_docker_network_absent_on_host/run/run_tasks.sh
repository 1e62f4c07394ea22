#!/bin/bash
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_team_docker_network_absent_on_host/run
docker network inspect team-eval-net || echo '(no team network here)'
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h35/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h35/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_team_docker_network_absent_on_host/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h35/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h35/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_team_docker_network_absent_on_host/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:36733/v1 --model-name sim-policy
echo '== profile'
/work/wt-h35/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h35/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_team_docker_network_absent_on_host/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
