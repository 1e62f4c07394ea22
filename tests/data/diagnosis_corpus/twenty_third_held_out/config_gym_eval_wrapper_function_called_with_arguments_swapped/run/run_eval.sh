#!/bin/bash
# weekly eval of the trivia split
cd /work/wt-h23/tests/data/diagnosis_corpus/held_out/config_gym_eval_wrapper_function_called_with_arguments_swapped/run
REPEATS=4
CONCURRENCY=1   # the shared model server is small

# usage: eval_split INPUT REPEATS CONCURRENCY
eval_split() {
  local input=$1 repeats=$2 concurrency=$3
  echo "eval of $input: $repeats repeat(s), concurrency $concurrency"
  /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input $input --output results/rollouts.jsonl --num-repeats $repeats --concurrency $concurrency ++route_failures_to_sidecar=true ++head_server.port=33365 ++uv_venv_dir=/tmp/ho-config_gym_eval_wrap-9d6vgkgp/server_venvs ++skip_venv_if_present=true
  /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
}

eval_split tasks.jsonl $CONCURRENCY $REPEATS
