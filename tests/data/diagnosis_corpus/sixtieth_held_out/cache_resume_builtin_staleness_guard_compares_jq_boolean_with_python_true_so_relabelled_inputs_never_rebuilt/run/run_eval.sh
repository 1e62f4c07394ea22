#!/bin/bash
# weekly eval
cd /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/cache_resume_builtin_staleness_guard_compares_jq_boolean_with_python_true_so_relabelled_inputs_never_rebuilt/run
# materialize only when the data or the settings changed (check-stale: the team's guard, moved from a python
# one-liner to jq this month)
STALE=$(/work/wt-h60/.venv/bin/gym-pipeline check-stale --inputs rollouts_materialized_inputs.jsonl --source string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --json | jq .stale)
if [ ! -f rollouts_materialized_inputs.jsonl ] || [ "$STALE" == "True" ]; then
  /work/wt-h60/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
else
  echo "materialized inputs up to date (stale=$STALE)"
fi
/work/wt-h60/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45759/v1 --env string_match --concurrency 4
/work/wt-h60/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
