#!/bin/bash
# weekly eval in batches
cd /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/throughput_builtin_collect_run_in_batches_of_one_row_so_per_process_startup_dominates_and_ci_step_timeout_cuts_it/run
# collect in batches so a crash loses at most one batch (batch size from the old debugging notes)
BATCH_SIZE=1
/work/wt-h89/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
rm -rf batches && mkdir -p batches/in batches/out
split -l "$BATCH_SIZE" -d -a 3 rollouts_materialized_inputs.jsonl batches/in/part_
echo "$(ls batches/in | wc -l) batches of $BATCH_SIZE"
# CI gives the collect step 40 s (ci.yaml)
timeout 40 bash -c 'for part in batches/in/part_*; do
  /work/wt-h89/.venv/bin/gym-pipeline collect --inputs "$part" --output "batches/out/$(basename "$part").jsonl" --model-url http://127.0.0.1:33117/v1 \
    --env string_match --concurrency 8 || exit $?
done'
echo "collect step exit: $?"
cat batches/out/*.jsonl > rollouts.jsonl
/work/wt-h89/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
