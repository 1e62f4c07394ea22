#!/bin/bash
cd /work/wt-h59/tests/data/diagnosis_corpus/fifty_ninth_held_out/healthy_slurm_shard_array_sized_for_four_shards_gets_three_and_spare_task_has_nothing_to_do/run
split -l 4 -d --additional-suffix=.jsonl tasks.jsonl shard_
wc -l shard_*.jsonl
