#!/bin/bash
# weekly eval; settings from eval.env
cd /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/healthy_builtin_env_file_exported_with_xargs_splits_inline_comment_into_words_export_rejects_yet_every_setting_is_set/run
# the settings live in eval.env (shared with the docker-compose setup)
export $(grep -v '^#' eval.env | xargs)
echo "settings: data=$DATASET repeats=$REPEATS model=$MODEL_URL"
/work/wt-h89/.venv/bin/gym-pipeline materialize --input "$DATASET" --num-repeats "${REPEATS:-1}" --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h89/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "$MODEL_URL" \
  --env string_match --concurrency 4
/work/wt-h89/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
