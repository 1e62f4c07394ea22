#!/bin/bash
# weekly eval
cd /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/healthy_builtin_run_script_times_stages_and_warns_they_ran_slower_than_last_weeks_timings/run
# each stage timed, compared with last week's timings (stage_times.txt, kept in the run folder)
timed() { local name=$1; shift; local t0=$SECONDS; "$@"; local rc=$?; local took=$((SECONDS - t0));
  local before=$(awk -v n="$name" '$1 == n {print $2}' stage_times.txt 2>/dev/null)
  if [ -n "$before" ] && [ "$took" -gt "$before" ]; then
    echo "WARNING: $name took ${took}s, slower than last week's ${before}s"; fi
  echo "$name $took" >> stage_times.new; return $rc; }
echo '== weekly eval'
timed materialize /work/wt-h55/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
timed collect /work/wt-h55/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44773/v1 --env string_match --concurrency 2
timed profile /work/wt-h55/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
mv stage_times.new stage_times.txt
