#!/bin/bash
# run_splits.sh: the weekly eval, split in two parts (part2 is the new hard questions)
cd /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/model_serving_builtin_run_script_kill_percent_one_meant_for_progress_printer_stops_model_server_started_first/run
# since this week the script starts its own model server (it used to run in another terminal)
/work/wt-h58/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/model_serving_builtin_run_script_kill_percent_one_meant_for_progress_printer_stops_model_server_started_first/run/server_url.txt --checkpoint /tmp/ho-model_serving_builti-7oex2_zf/checkpoints/step_0200 --latency-ms 40 \
  > logs/model_server.log 2>&1 &
for i in $(seq 60); do [ -s server_url.txt ] && break; sleep 0.5; done
URL=$(cat server_url.txt)
echo "model server at $URL"

# progress printer: rollouts so far, every 2 s
( while sleep 2; do echo "$(date +%T) $(cat part*/rollouts.jsonl 2>/dev/null | wc -l) rollouts"; done ) \
  > logs/progress.log 2>&1 &

for part in part1 part2; do
  echo "== $part"
  mkdir -p $part
  /work/wt-h58/.venv/bin/gym-pipeline materialize --input $part.jsonl --num-repeats 3 --agent string_match_simple_agent \
    --output $part/rollouts_materialized_inputs.jsonl
  /work/wt-h58/.venv/bin/gym-pipeline collect --inputs $part/rollouts_materialized_inputs.jsonl --output $part/rollouts.jsonl --model-url "$URL" \
    --env string_match --concurrency 4
  /work/wt-h58/.venv/bin/gym-pipeline profile --inputs $part/rollouts_materialized_inputs.jsonl --rollouts $part/rollouts.jsonl
  if [ $part = part1 ]; then
    kill %1   # part 1 done: stop the progress printer, it double-counts once part2 starts
  fi
done
kill %2   # stop the model server
