#!/bin/bash
# weekly eval
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_declares_dataset_with_local_outside_a_function/run
# settings (moved out of main() when the script was flattened)
local DATA=capitals_v2.jsonl   # this quarter's set, with the relabelled capitals
DATA=${DATA:-capitals.jsonl}
echo "== weekly eval on $DATA"
/work/wt-h44/.venv/bin/gym-pipeline materialize --input $DATA --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h44/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45929/v1 --env string_match --concurrency 4
/work/wt-h44/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
