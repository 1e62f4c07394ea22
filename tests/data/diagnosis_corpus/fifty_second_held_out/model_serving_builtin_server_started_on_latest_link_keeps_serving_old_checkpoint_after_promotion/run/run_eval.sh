#!/bin/bash
# weekly eval
cd /work/wt-h52/tests/data/diagnosis_corpus/held_out/model_serving_builtin_server_started_on_latest_link_keeps_serving_old_checkpoint_after_promotion/run
CKPT=$(readlink -f /tmp/ho-model_serving_builti-k7su7q92/checkpoints/latest)
echo "== weekly eval of $CKPT"
echo "$(basename $CKPT)" > evaluated_checkpoint.txt
curl -s http://127.0.0.1:34005/v1/models; echo
/work/wt-h52/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h52/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34005/v1 --env string_match --concurrency 4
/work/wt-h52/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
