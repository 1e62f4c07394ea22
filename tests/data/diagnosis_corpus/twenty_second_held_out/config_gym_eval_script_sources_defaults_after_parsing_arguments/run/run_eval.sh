#!/bin/bash
# usage: run_eval.sh [--repeats N] [--concurrency N]
cd /work/wt-h22/tests/data/diagnosis_corpus/held_out/config_gym_eval_script_sources_defaults_after_parsing_arguments/run
while [ $# -gt 0 ]; do
  case $1 in
    --repeats) REPEATS=$2; shift 2;;
    --concurrency) CONCURRENCY=$2; shift 2;;
    *) echo "unknown option $1"; exit 2;;
  esac
done
source defaults.env
echo "eval: $REPEATS repeats, concurrency $CONCURRENCY -> $OUT"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output $OUT/rollouts.jsonl --num-repeats $REPEATS --concurrency $CONCURRENCY ++route_failures_to_sidecar=true ++head_server.port=48063 ++uv_venv_dir=/tmp/ho-config_gym_eval_scri-wyee6n8a/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs $OUT/rollouts_materialized_inputs.jsonl --rollouts $OUT/rollouts.jsonl
