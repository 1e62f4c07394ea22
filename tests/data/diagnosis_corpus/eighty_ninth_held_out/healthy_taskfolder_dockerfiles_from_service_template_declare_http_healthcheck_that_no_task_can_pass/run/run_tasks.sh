#!/bin/bash
cd /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/healthy_taskfolder_dockerfiles_from_service_template_declare_http_healthcheck_that_no_task_can_pass/run
echo '== Dockerfile health checks'
grep -H HEALTHCHECK tasks/*/environment/Dockerfile
echo '== materialize'
/work/wt-h89/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/healthy_taskfolder_dockerfiles_from_service_template_declare_http_healthcheck_that_no_task_can_pass/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h89/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/healthy_taskfolder_dockerfiles_from_service_template_declare_http_healthcheck_that_no_task_can_pass/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:33891/v1 --model-name sim-policy
echo '== profile'
/work/wt-h89/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/healthy_taskfolder_dockerfiles_from_service_template_declare_http_healthcheck_that_no_task_can_pass/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
