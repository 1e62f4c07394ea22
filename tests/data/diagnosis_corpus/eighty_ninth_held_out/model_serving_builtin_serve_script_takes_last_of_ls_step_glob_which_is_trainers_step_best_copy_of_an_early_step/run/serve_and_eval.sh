#!/bin/bash
# serve_and_eval.sh: serve the trainer's last step, then the weekly eval against it
cd /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/model_serving_builtin_serve_script_takes_last_of_ls_step_glob_which_is_trainers_step_best_copy_of_an_early_step/run
CKPTS=/tmp/ho-model_serving_builti-7aozrmzr/trainer_out/run42
CKPT=$(ls -d $CKPTS/step_* | tail -1)
echo "checkpoints: $(ls $CKPTS | tr '\n' ' ')"
echo "serving $CKPT"
rm -f ready.url
/work/wt-h89/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file ready.url --checkpoint $CKPT --latency-ms 20 > logs/model_server.log 2>&1 &
SERVER=$!
for i in $(seq 1 60); do test -s ready.url && break; sleep 0.5; done
URL=$(cat ready.url)
echo "model server at $URL"
/work/wt-h89/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h89/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL --env string_match --concurrency 4
/work/wt-h89/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
kill $SERVER
