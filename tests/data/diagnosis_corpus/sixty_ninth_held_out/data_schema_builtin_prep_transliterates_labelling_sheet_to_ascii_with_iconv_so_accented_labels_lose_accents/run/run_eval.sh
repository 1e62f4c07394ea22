#!/bin/bash
# weekly eval of the labelling sheet
cd /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/data_schema_builtin_prep_transliterates_labelling_sheet_to_ascii_with_iconv_so_accented_labels_lose_accents/run
bash prep.sh
/work/wt-h69/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h69/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39711/v1 --env string_match --concurrency 4
/work/wt-h69/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
