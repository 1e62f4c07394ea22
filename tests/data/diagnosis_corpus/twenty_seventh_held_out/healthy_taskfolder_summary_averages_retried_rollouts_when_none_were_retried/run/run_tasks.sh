#!/bin/bash
cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_summary_averages_retried_rollouts_when_none_were_retried/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h27/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h27/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_summary_averages_retried_rollouts_when_none_were_retried/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h27/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h27/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_summary_averages_retried_rollouts_when_none_were_retried/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:45773/v1 --model-name sim-policy
echo '== profile'
/work/wt-h27/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h27/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_summary_averages_retried_rollouts_when_none_were_retried/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== mean reward of the rollouts that needed a retry'
python3 -c "import json, statistics; rows = [json.loads(l) for l in open('rollouts.jsonl')]; print(statistics.mean(r['reward'] for r in rows if (r.get('_ng_attempt_index') or 0) > 0))"
