#!/bin/bash
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_lists_containers_with_format_field_docker_does_not_know/run
echo '== containers on this node (for the run notes)'
docker ps -a --format '{{.Names}} {{.Statuss}}' | head -5 || echo 'could not list the containers'
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h42/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h42/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_lists_containers_with_format_field_docker_does_not_know/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h42/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h42/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_lists_containers_with_format_field_docker_does_not_know/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:40833/v1 --model-name sim-policy
echo '== profile'
/work/wt-h42/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h42/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_lists_containers_with_format_field_docker_does_not_know/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
