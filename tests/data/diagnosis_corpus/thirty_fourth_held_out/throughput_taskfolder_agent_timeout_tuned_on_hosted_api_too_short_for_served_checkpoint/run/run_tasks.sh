#!/bin/bash
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/throughput_taskfolder_agent_timeout_tuned_on_hosted_api_too_short_for_served_checkpoint/run
grep -H timeout_sec tasks/*/task.toml
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h34/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h34/tests/data/diagnosis_corpus/held_out/throughput_taskfolder_agent_timeout_tuned_on_hosted_api_too_short_for_served_checkpoint/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h34/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h34/tests/data/diagnosis_corpus/held_out/throughput_taskfolder_agent_timeout_tuned_on_hosted_api_too_short_for_served_checkpoint/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39655/v1 --model-name sim-policy
echo '== profile'
/work/wt-h34/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h34/tests/data/diagnosis_corpus/held_out/throughput_taskfolder_agent_timeout_tuned_on_hosted_api_too_short_for_served_checkpoint/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
