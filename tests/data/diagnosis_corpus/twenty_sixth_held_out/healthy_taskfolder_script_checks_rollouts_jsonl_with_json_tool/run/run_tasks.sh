#!/bin/bash
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_script_checks_rollouts_jsonl_with_json_tool/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h26/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h26/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_script_checks_rollouts_jsonl_with_json_tool/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h26/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h26/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_script_checks_rollouts_jsonl_with_json_tool/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:33011/v1 --model-name sim-policy
echo '== profile'
/work/wt-h26/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h26/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_script_checks_rollouts_jsonl_with_json_tool/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== checking that rollouts.jsonl is valid JSON'
python3 -m json.tool rollouts.jsonl > /dev/null && echo 'rollouts.jsonl: valid'
