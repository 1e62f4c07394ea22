#!/bin/bash
cd /work/wt-h65/tests/data/diagnosis_corpus/sixty_fifth_held_out/config_slurm_shard_array_keeps_step_of_two_from_seed_sweep_template_so_odd_shards_never_run/run
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
wc -l shard_?.jsonl
