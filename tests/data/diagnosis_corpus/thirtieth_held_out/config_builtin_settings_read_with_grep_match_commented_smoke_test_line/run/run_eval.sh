#!/bin/bash
# weekly eval: settings come from eval_settings.ini
cd /work/wt-h30/tests/data/diagnosis_corpus/held_out/config_builtin_settings_read_with_grep_match_commented_smoke_test_line/run
setting() { grep "$1" eval_settings.ini | tail -1 | cut -d= -f2 | tr -d ' '; }
REPEATS=$(setting num_repeats)
echo "== weekly eval: $REPEATS repeats a task"
/work/wt-h30/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h30/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(setting model_url) \
  --env string_match --concurrency $(setting concurrency)
/work/wt-h30/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
