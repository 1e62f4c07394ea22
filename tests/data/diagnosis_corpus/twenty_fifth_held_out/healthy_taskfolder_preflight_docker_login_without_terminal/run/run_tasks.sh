#!/bin/bash
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_docker_login_without_terminal/run
echo '== logging in to the team registry'
docker login 127.0.0.1:5999 -u ci-bot < /dev/null
echo '== materialize'
/work/wt-h25/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h25/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_docker_login_without_terminal/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h25/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h25/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_docker_login_without_terminal/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:46871/v1 --model-name sim-policy
echo '== profile'
/work/wt-h25/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h25/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_docker_login_without_terminal/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
