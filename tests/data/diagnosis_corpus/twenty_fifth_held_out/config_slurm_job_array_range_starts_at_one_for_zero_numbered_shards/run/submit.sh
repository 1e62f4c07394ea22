#!/bin/bash
# split the eval set into 4 shards, one array task each, then count what came back
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/config_slurm_job_array_range_starts_at_one_for_zero_numbered_shards/run
mkdir -p shards
split -l 2 -d -a 1 --additional-suffix=.jsonl string_match.jsonl shards/shard_
ls shards
JOB=$(sbatch --parsable shards.sbatch)
echo "submitted array job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "array job $JOB finished"
wc -l results/*/rollouts.jsonl
