#!/bin/bash
# weekly eval
cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_exports_locale_not_installed_on_node/run
# my usual settings
export LANG=de_DE.UTF-8
export LC_ALL=de_DE.UTF-8
echo "== weekly eval, $(date)"
/work/wt-h27/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h27/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36331/v1 --env string_match --concurrency 4
/work/wt-h27/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
