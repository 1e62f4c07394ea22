#!/bin/bash
# weekly eval: serve the newest checkpoint
cd /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/model_serving_builtin_serve_script_latest_link_made_with_target_relative_to_wrong_folder_dangles/run
# serve the trainer's newest checkpoint through its 'latest' link, then evaluate it
STEP=step_0200
(cd /tmp/ho-model_serving_builti-am524c9q/checkpoints/.. && ln -sfn checkpoints/$STEP checkpoints/latest)
rm -f policy_url.txt
/work/wt-h79/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file policy_url.txt --checkpoint /tmp/ho-model_serving_builti-am524c9q/checkpoints/latest --latency-ms 20 \
  >> logs/model_server.log 2>&1 &
for i in $(seq 1 40); do [ -s policy_url.txt ] && break; sleep 0.5; done
URL=$(cat policy_url.txt 2>/dev/null)
echo "policy server at $URL"
/work/wt-h79/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h79/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "$URL" \
  --env string_match --concurrency 4
/work/wt-h79/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
