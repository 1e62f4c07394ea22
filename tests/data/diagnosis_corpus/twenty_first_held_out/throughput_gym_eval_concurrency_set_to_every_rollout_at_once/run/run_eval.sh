#!/bin/bash
# nightly eval: every rollout in flight at once
DATA=/work/wt-h21/tests/data/diagnosis_corpus/held_out/throughput_gym_eval_concurrency_set_to_every_rollout_at_once/run/tasks.jsonl
REPEATS=3
N=$(wc -l < $DATA)
CONCURRENCY=$((N * REPEATS))
echo "$N tasks x $REPEATS repeats, concurrency $CONCURRENCY"
timeout 150 /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input $DATA --output results/rollouts.jsonl --num-repeats $REPEATS --concurrency $CONCURRENCY ++route_failures_to_sidecar=true ++head_server.port=57333 ++uv_venv_dir=/tmp/ho-throughput_gym_eval_-ekvg0nfg/server_venvs ++skip_venv_if_present=true
