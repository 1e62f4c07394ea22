#!/bin/bash
# weekly eval: point the settings at this week's dataset version, then run (written on my Mac)
cd /work/wt-h38/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_uses_bsd_sed_in_place_syntax_so_dataset_setting_never_updated/run
sed -i '' "s|^DATASET=.*|DATASET=string_match_v2.jsonl|" settings.env
source settings.env
echo "== weekly eval of $DATASET"
/work/wt-h38/.venv/bin/gym-pipeline materialize --input $DATASET --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h38/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35077/v1 --env string_match --concurrency 4
/work/wt-h38/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
