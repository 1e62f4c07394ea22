#!/bin/bash
# submit.sh: the weekly sharded eval (4 tasks a shard), then merge.sh
cd /work/wt-h68/tests/data/diagnosis_corpus/sixty_eighth_held_out/cache_resume_slurm_merge_globs_shard_folders_so_last_weeks_fifth_shard_of_dropped_tasks_is_merged_in/run
rm -f shard_?.jsonl
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
N=$(ls shard_?.jsonl | wc -l)
echo "$N shards"
JOB=$(sbatch --parsable --array=0-$((N-1)) eval.sbatch)
echo "submitted job array $JOB (0-$((N-1)))"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 3; done
echo "job array $JOB finished"
bash merge.sh
