#!/bin/bash
# weekly eval of every task
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/config_gym_eval_limit_from_wc_l_includes_file_name/run
N=$(wc -l tasks.jsonl)
echo "weekly eval: $N tasks"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=44559 ++uv_venv_dir=/tmp/ho-config_gym_eval_limi-1jedw887/server_venvs ++skip_venv_if_present=true --limit $N
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
