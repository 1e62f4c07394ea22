#!/bin/bash
# weekly eval of the units-and-fractions quiz
cd /work/wt-h70/tests/data/diagnosis_corpus/seventieth_held_out/healthy_builtin_prep_writes_tasks_with_pandas_to_json_which_escapes_every_slash_in_prompts_and_labels/run
/work/wt-h70/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h70/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40709/v1 --env string_match --concurrency 4
/work/wt-h70/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
