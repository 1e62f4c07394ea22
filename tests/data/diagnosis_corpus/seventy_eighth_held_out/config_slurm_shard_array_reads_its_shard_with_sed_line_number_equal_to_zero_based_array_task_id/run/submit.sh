#!/bin/bash
# submit.sh: split the week's tasks into 4 shards, evaluate them as a job array, merge the rollouts
cd /work/wt-h78/tests/data/diagnosis_corpus/seventy_eighth_held_out/config_slurm_shard_array_reads_its_shard_with_sed_line_number_equal_to_zero_based_array_task_id/run
mkdir -p shards && split -l 4 -d -a 1 --additional-suffix=.jsonl string_match.jsonl shards/shard_
ls shards/*.jsonl > shards.txt
cat shards.txt
JOB=$(sbatch --parsable eval_shard.sbatch)
echo "submitted array $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
cat results/*/rollouts.jsonl > rollouts_all_shards.jsonl
echo "merged $(wc -l < rollouts_all_shards.jsonl) rollouts from $(ls -d results/*/ | wc -l) shards"
