#!/bin/bash
# weekly eval
cd /work/wt-h50/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_records_ulimits_inode_use_and_load_before_eval/run
# resource notes for the capacity review
echo '== limits'; ulimit -a
echo '== inodes'; df -hi . | tail -n 1
echo '== load'; cat /proc/loadavg
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=59169 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-rmgmik6t/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
