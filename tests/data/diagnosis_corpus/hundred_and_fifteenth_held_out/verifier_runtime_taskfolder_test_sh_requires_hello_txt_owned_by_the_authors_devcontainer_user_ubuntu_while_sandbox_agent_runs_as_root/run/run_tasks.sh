#!/bin/bash
cd /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/verifier_runtime_taskfolder_test_sh_requires_hello_txt_owned_by_the_authors_devcontainer_user_ubuntu_while_sandbox_agent_runs_as_root/run
echo '== weekly taskset run'
echo '== materialize'
/work/h115/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/verifier_runtime_taskfolder_test_sh_requires_hello_txt_owned_by_the_authors_devcontainer_user_ubuntu_while_sandbox_agent_runs_as_root/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h115/.venv/bin/gym-pipeline stage collect --sweep-config /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/verifier_runtime_taskfolder_test_sh_requires_hello_txt_owned_by_the_authors_devcontainer_user_ubuntu_while_sandbox_agent_runs_as_root/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:43927/v1 --model-name sim-policy
echo '== profile'
/work/h115/.venv/bin/gym-pipeline stage profile --sweep-config /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/verifier_runtime_taskfolder_test_sh_requires_hello_txt_owned_by_the_authors_devcontainer_user_ubuntu_while_sandbox_agent_runs_as_root/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
