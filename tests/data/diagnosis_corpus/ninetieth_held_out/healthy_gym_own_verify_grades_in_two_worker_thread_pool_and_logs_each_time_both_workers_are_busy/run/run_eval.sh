#!/bin/bash
# weekly eval with our quiz_pool server
cd /work/wt-h90/tests/data/diagnosis_corpus/ninetieth_held_out/healthy_gym_own_verify_grades_in_two_worker_thread_pool_and_logs_each_time_both_workers_are_busy/run
# CI step budget: the eval step gets 240 s (ci/eval_step.yaml), the profile runs after it
timeout 240 /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_pool_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 4 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_veri-fr1f9e2b/my_gym ++head_server.port=34863 ++uv_venv_dir=/tmp/ho-healthy_gym_own_veri-fr1f9e2b/server_venvs ++skip_venv_if_present=true
echo "eval step exit: $?"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
