#!/bin/bash
# serve_and_eval.sh: serve the trainer's last step, then the weekly eval against it
cd /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/model_serving_builtin_serve_script_takes_step_from_first_step_entry_of_trainer_state_log_history_so_step_100_served/run
CKPTS=/tmp/ho-model_serving_builti-t2u3xvdu/checkpoints
STEP=$(grep -o '"step": [0-9]*' $CKPTS/trainer_state.json | head -1 | grep -o '[0-9]*$')
CKPT=$CKPTS/$(printf 'step_%04d' "$STEP")
echo "serving step $STEP: $CKPT"
rm -f ready.url
/work/wt-h85/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file ready.url --checkpoint $CKPT --latency-ms 20 > logs/model_server.log 2>&1 &
SERVER=$!
for i in $(seq 1 60); do test -s ready.url && break; sleep 0.5; done
URL=$(cat ready.url)
echo "model server at $URL"
/work/wt-h85/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h85/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
/work/wt-h85/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
kill $SERVER
