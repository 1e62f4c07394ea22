#!/bin/bash
# weekly eval
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/throughput_gym_run_script_multiplies_concurrency_by_repeats/run
PARALLEL=4   # prompts in flight
REPEATS=3
CONCURRENCY=$((PARALLEL * REPEATS))   # every repeat of the prompts at once
echo "== weekly eval, concurrency $CONCURRENCY"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats $REPEATS --concurrency $CONCURRENCY ++route_failures_to_sidecar=true ++head_server.port=49513 ++uv_venv_dir=/tmp/ho-throughput_gym_run_s-bsbt3bh4/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
