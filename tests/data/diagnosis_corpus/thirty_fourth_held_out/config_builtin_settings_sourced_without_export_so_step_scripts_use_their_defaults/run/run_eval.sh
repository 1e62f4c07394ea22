#!/bin/bash
# weekly eval: settings from settings.env, one script per step
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/config_builtin_settings_sourced_without_export_so_step_scripts_use_their_defaults/run
source ./settings.env
echo "== weekly eval of $DATA x $REPEATS"
bash steps/materialize.sh
bash steps/collect.sh http://127.0.0.1:36527/v1
/work/wt-h34/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
