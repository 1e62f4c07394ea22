#!/bin/bash
# weekly eval (smoke test: LIMIT=4 bash run_eval.sh)
cd /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/config_builtin_run_script_default_limit_from_wc_l_undercounts_export_whose_last_row_has_no_newline/run
DATA=string_match.jsonl
echo "== weekly eval of $DATA ($(wc -l < $DATA) tasks)"
/work/wt-h60/.venv/bin/gym-pipeline materialize --input $DATA --num-repeats 3 --agent string_match_simple_agent --limit ${LIMIT:-$(wc -l < $DATA)} --output rollouts_materialized_inputs.jsonl
/work/wt-h60/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39669/v1 --env string_match --concurrency 4
/work/wt-h60/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
