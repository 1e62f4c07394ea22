#!/bin/bash
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/config_slurm_array_job_picks_shard_by_array_job_id_instead_of_task_id/run
JOB=$(sbatch --parsable shards.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
