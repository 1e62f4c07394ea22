#!/bin/bash
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/infra_taskfolder_node_profile_exports_http_proxy_without_no_proxy_so_agent_model_calls_go_to_dead_proxy/run
echo '== weekly taskset run'
env | grep -i _proxy
echo '== materialize'
/work/wt-h45/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h45/tests/data/diagnosis_corpus/held_out/infra_taskfolder_node_profile_exports_http_proxy_without_no_proxy_so_agent_model_calls_go_to_dead_proxy/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h45/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h45/tests/data/diagnosis_corpus/held_out/infra_taskfolder_node_profile_exports_http_proxy_without_no_proxy_so_agent_model_calls_go_to_dead_proxy/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39817/v1 --model-name sim-policy
echo '== profile'
/work/wt-h45/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h45/tests/data/diagnosis_corpus/held_out/infra_taskfolder_node_profile_exports_http_proxy_without_no_proxy_so_agent_model_calls_go_to_dead_proxy/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
