#!/bin/bash
# submit.sh: the weekly sharded eval (4 shards of 4 tasks)
cd /work/wt-h68/tests/data/diagnosis_corpus/sixty_eighth_held_out/config_slurm_array_task_picks_its_shard_by_slurm_procid_which_is_zero_in_every_array_task/run
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
wc -l shard_?.jsonl
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job array $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 3; done
echo "job array $JOB finished"
for d in out_*/; do echo "$d $(wc -l < $d/rollouts.jsonl) rollouts"; done
cat out_*/rollouts.jsonl > merged_rollouts.jsonl
echo "merged $(wc -l < merged_rollouts.jsonl) rollouts"
