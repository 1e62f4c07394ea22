#!/bin/bash
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/infra_taskfolder_node_env_points_docker_host_at_rootless_socket_of_old_setup/run
source ./node_env.sh
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h35/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h35/tests/data/diagnosis_corpus/held_out/infra_taskfolder_node_env_points_docker_host_at_rootless_socket_of_old_setup/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h35/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h35/tests/data/diagnosis_corpus/held_out/infra_taskfolder_node_env_points_docker_host_at_rootless_socket_of_old_setup/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:42173/v1 --model-name sim-policy
echo '== profile'
/work/wt-h35/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h35/tests/data/diagnosis_corpus/held_out/infra_taskfolder_node_env_points_docker_host_at_rootless_socket_of_old_setup/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
