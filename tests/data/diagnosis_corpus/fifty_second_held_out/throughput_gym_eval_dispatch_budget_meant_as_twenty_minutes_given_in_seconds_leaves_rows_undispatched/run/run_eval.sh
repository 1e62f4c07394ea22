#!/bin/bash
# weekly eval
cd /work/wt-h52/tests/data/diagnosis_corpus/held_out/throughput_gym_eval_dispatch_budget_meant_as_twenty_minutes_given_in_seconds_leaves_rows_undispatched/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true $(grep -v '^#' ci_overrides.txt) ++head_server.port=46293 ++uv_venv_dir=/tmp/ho-throughput_gym_eval_-lhztxfax/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
