#!/bin/bash
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/config_slurm_job_concurrency_from_slurm_cpus_per_task_without_cpus_per_task_directive/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
