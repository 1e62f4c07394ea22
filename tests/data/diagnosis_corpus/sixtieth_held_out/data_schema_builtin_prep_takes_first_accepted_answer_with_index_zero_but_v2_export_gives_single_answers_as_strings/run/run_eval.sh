#!/bin/bash
# weekly eval
cd /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/data_schema_builtin_prep_takes_first_accepted_answer_with_index_zero_but_v2_export_gives_single_answers_as_strings/run
echo '== weekly eval'
/work/wt-h60/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h60/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44927/v1 --env string_match --concurrency 4
/work/wt-h60/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
