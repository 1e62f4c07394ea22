#!/bin/bash
# weekly eval, settings from eval_settings.yaml
cd /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/config_builtin_run_script_greps_repeats_from_settings_yaml_which_also_matches_smoke_repeats_key/run
REPEATS=$(grep repeats eval_settings.yaml | cut -d: -f2)
CONCURRENCY=$(grep '^concurrency' eval_settings.yaml | cut -d: -f2)
echo "repeats: $REPEATS, concurrency: $CONCURRENCY"
/work/wt-h71/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h71/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41359/v1 --env string_match --concurrency $CONCURRENCY
/work/wt-h71/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
