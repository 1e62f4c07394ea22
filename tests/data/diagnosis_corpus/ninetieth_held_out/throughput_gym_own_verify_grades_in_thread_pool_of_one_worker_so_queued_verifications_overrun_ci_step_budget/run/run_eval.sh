#!/bin/bash
# weekly eval with our quiz_pool server
cd /work/wt-h90/tests/data/diagnosis_corpus/ninetieth_held_out/throughput_gym_own_verify_grades_in_thread_pool_of_one_worker_so_queued_verifications_overrun_ci_step_budget/run
# CI step budget: the eval step gets 40 s (ci/eval_step.yaml), the profile runs after it
timeout 40 /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_pool_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 4 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-throughput_gym_own_v-80__n0ki/my_gym ++head_server.port=58093 ++uv_venv_dir=/tmp/ho-throughput_gym_own_v-80__n0ki/server_venvs ++skip_venv_if_present=true
echo "eval step exit: $?"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
