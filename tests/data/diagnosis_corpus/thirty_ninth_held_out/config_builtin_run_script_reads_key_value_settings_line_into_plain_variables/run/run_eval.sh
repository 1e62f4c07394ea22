#!/bin/bash
# weekly eval
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_reads_key_value_settings_line_into_plain_variables/run
read -r REPEATS CONCURRENCY < eval_settings.txt   # one line: repeats and concurrency
echo "== weekly eval: $REPEATS repeats, concurrency $CONCURRENCY"
/work/wt-h39/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h39/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37605/v1 --env string_match --concurrency $CONCURRENCY
/work/wt-h39/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
