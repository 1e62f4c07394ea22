#!/bin/bash
# CI eval step (budget 35 s for the smoke eval)
cd /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/throughput_resources_builtin_driver_waits_on_each_shard_inside_the_list_comprehension_that_starts_them_so_shards_run_serially_past_ci_budget/run
timeout 35 /work/h107/.venv/bin/python drive_eval.py http://127.0.0.1:37901/v1
echo "eval step exit: $?"
