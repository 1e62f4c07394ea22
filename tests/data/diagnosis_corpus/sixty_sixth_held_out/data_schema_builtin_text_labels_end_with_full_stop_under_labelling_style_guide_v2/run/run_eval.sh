#!/bin/bash
# weekly eval of the labelling team's export
cd /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/data_schema_builtin_text_labels_end_with_full_stop_under_labelling_style_guide_v2/run
/work/wt-h66/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h66/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38189/v1 --env string_match --concurrency 4
/work/wt-h66/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
