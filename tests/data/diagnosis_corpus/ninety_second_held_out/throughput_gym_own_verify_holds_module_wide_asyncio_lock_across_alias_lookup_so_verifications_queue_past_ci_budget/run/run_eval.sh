#!/bin/bash
# weekly eval with our quiz_lock server
cd /work/h92/tests/data/diagnosis_corpus/ninety_second_held_out/throughput_gym_own_verify_holds_module_wide_asyncio_lock_across_alias_lookup_so_verifications_queue_past_ci_budget/run
# CI step budget: the eval step gets 30 s (ci/eval_step.yaml), the profile runs after it
timeout 30 /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_lock_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 4 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-throughput_gym_own_v-mvyos1l0/my_gym ++head_server.port=35309 ++uv_venv_dir=/tmp/ho-throughput_gym_own_v-mvyos1l0/server_venvs ++skip_venv_if_present=true
echo "eval step exit: $?"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
