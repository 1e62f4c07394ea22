#!/bin/bash
# weekly eval
cd /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/healthy_builtin_summary_script_averages_bucket_of_quarterly_set_empty_this_week_with_numpy_mean_of_empty_slice/run
echo '== weekly eval'
/work/wt-h60/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h60/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36201/v1 --env string_match --concurrency 4
/work/wt-h60/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo '== summary'
/work/wt-h60/.venv/bin/python summarize.py
