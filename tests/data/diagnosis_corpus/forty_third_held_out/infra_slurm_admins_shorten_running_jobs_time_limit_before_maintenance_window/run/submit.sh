#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/infra_slurm_admins_shorten_running_jobs_time_limit_before_maintenance_window/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
