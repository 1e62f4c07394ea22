#!/bin/bash
# run_eval.sh [-r REPEATS] [-u MODEL_URL]: the weekly eval (called by ci.sh)
cd /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/healthy_builtin_ci_passes_retired_concurrency_option_last_so_getopts_reports_illegal_option_and_the_run_completes/run
REPEATS=1
MODEL_URL=""
while getopts "r:u:" opt; do
  case $opt in
    r) REPEATS="$OPTARG" ;;
    u) MODEL_URL="$OPTARG" ;;
    \?) echo "run_eval.sh: ignoring unknown option (see usage)" ;;
  esac
done
echo "eval: repeats $REPEATS, model $MODEL_URL"
/work/wt-h85/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats "$REPEATS" --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h85/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "$MODEL_URL" \
  --env string_match --concurrency 4
/work/wt-h85/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
