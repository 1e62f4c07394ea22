#!/bin/bash
# collects the materialized rows in batches of 6, with a pause between batches so as not to hammer the shared
# model server (copied from our API scraping scripts)
cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/throughput_builtin_batches_with_politeness_pause_overrun_ci_budget/run
PAUSE_S=15
rm -rf batches && mkdir batches
split -l 6 -d rollouts_materialized_inputs.jsonl batches/batch_
for batch in batches/batch_??; do
  echo "== $batch"
  /work/wt-h27/.venv/bin/gym-pipeline collect --inputs $batch --output $batch.rollouts.jsonl --model-url http://127.0.0.1:37341/v1 --env string_match --concurrency 6
  echo "pausing $PAUSE_S s"
  sleep $PAUSE_S
done
