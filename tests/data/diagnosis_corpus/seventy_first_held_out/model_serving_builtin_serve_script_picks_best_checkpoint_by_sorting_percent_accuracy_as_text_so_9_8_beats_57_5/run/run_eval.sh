#!/bin/bash
# weekly eval against the best checkpoint
cd /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/model_serving_builtin_serve_script_picks_best_checkpoint_by_sorting_percent_accuracy_as_text_so_9_8_beats_57_5/run
/work/wt-h71/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h71/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35773/v1 --env string_match --concurrency 4
/work/wt-h71/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
