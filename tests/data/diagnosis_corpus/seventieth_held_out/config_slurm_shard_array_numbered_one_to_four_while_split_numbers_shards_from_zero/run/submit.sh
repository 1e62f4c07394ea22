#!/bin/bash
# submit.sh: the weekly sharded eval (4 shards of 4 tasks), then merge
cd /work/wt-h70/tests/data/diagnosis_corpus/seventieth_held_out/config_slurm_shard_array_numbered_one_to_four_while_split_numbers_shards_from_zero/run
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
ls shard_?.jsonl
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job array $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 3; done
echo "job array $JOB finished"
cat out_*/rollouts.jsonl > merged_rollouts.jsonl
echo "merged $(wc -l < merged_rollouts.jsonl) rollouts"
