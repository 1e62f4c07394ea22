#!/bin/bash
# weekly eval; settings in eval.conf
cd /work/wt-h22/tests/data/diagnosis_corpus/held_out/config_builtin_settings_read_in_piped_while_loop_are_lost/run
REPEATS=1      # quick-check defaults
CONCURRENCY=1
grep -v '^#' eval.conf | while read key value; do
  echo "setting $key=$value"
  declare "$key=$value"
done
echo "eval with $REPEATS repeat(s), concurrency $CONCURRENCY"
/work/wt-h22/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h22/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34179/v1 --env string_match --concurrency $CONCURRENCY
/work/wt-h22/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
