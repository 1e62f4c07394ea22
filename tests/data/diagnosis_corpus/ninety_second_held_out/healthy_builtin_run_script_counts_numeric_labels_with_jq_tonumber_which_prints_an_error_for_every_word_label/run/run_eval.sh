#!/bin/bash
# weekly eval: count the numeric labels, materialize, collect, profile
cd /work/h92/tests/data/diagnosis_corpus/ninety_second_held_out/healthy_builtin_run_script_counts_numeric_labels_with_jq_tonumber_which_prints_an_error_for_every_word_label/run
echo "numeric labels: $(jq '.expected_answer | tonumber' string_match.jsonl | wc -l) of $(wc -l < string_match.jsonl)"
/work/h92/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h92/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33175/v1 --env string_match --concurrency 4
/work/h92/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
