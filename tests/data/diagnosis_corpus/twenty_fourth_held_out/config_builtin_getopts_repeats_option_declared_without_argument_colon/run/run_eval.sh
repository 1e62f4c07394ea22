#!/bin/bash
# usage: run_eval.sh [-r REPEATS] [-c CONCURRENCY] [DATA]
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/config_builtin_getopts_repeats_option_declared_without_argument_colon/run
REPEATS=1
CONCURRENCY=2
while getopts "rc:" opt; do
  case $opt in
    r) REPEATS=$OPTARG ;;
    c) CONCURRENCY=$OPTARG ;;
    *) echo "usage: run_eval.sh [-r REPEATS] [-c CONCURRENCY] [DATA]"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
DATA=${1:-string_match.jsonl}
echo "eval of $DATA: $REPEATS repeat(s), concurrency $CONCURRENCY"
/work/wt-h24/.venv/bin/gym-pipeline materialize --input $DATA --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h24/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34855/v1 --env string_match --concurrency $CONCURRENCY
/work/wt-h24/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
