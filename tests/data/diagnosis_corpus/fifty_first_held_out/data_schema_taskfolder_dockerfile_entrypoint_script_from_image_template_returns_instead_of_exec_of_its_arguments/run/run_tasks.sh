#!/bin/bash
cd /work/wt-h51/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_dockerfile_entrypoint_script_from_image_template_returns_instead_of_exec_of_its_arguments/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h51/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h51/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_dockerfile_entrypoint_script_from_image_template_returns_instead_of_exec_of_its_arguments/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h51/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h51/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_dockerfile_entrypoint_script_from_image_template_returns_instead_of_exec_of_its_arguments/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:44179/v1 --model-name sim-policy
echo '== profile'
/work/wt-h51/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h51/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_dockerfile_entrypoint_script_from_image_template_returns_instead_of_exec_of_its_arguments/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
