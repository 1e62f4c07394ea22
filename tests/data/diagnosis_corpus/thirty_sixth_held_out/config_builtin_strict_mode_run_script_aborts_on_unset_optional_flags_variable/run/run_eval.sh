#!/bin/bash
# weekly eval; strict mode like all our scripts
set -euo pipefail
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/config_builtin_strict_mode_run_script_aborts_on_unset_optional_flags_variable/run
echo "== weekly eval"
/work/wt-h36/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
# EXTRA_COLLECT_FLAGS: e.g. --resume after a preemption
/work/wt-h36/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45119/v1 \
  --env string_match --concurrency 4 $EXTRA_COLLECT_FLAGS
/work/wt-h36/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
