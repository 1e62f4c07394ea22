#!/bin/bash
# weekly eval (the CI runner starts it with `sh run_eval.sh`)
cd /work/wt-h38/tests/data/diagnosis_corpus/held_out/config_builtin_bash_array_run_script_started_with_sh_which_is_dash/run
/work/wt-h38/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
COLLECT_OPTS=(--env string_match --concurrency 4)
/work/wt-h38/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41513/v1 \
  "${COLLECT_OPTS[@]}"
/work/wt-h38/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
