#!/bin/bash
# weekly eval with our quiz_pause server
cd /work/h94/tests/data/diagnosis_corpus/ninety_fourth_held_out/throughput_gym_own_verify_passes_alias_pause_in_milliseconds_to_asyncio_sleep_which_takes_seconds_so_eval_overruns_ci_budget/run
# CI step budget: the eval step gets 30 s (ci/eval_step.yaml), the profile runs after it
timeout 30 /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_pause_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 4 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-throughput_gym_own_v-d2rrl0bu/my_gym ++head_server.port=53359 ++uv_venv_dir=/tmp/ho-throughput_gym_own_v-d2rrl0bu/server_venvs ++skip_venv_if_present=true
echo "eval step exit: $?"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
