#!/bin/bash
for s in 0 1 2 3; do
  cd /work/wt-h22/tests/data/diagnosis_corpus/held_out/throughput_slurm_shard_job_array_without_concurrency_throttle/run/shards/$s
  /work/wt-h22/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
done
