#!/bin/bash
cd /work/wt-h33/tests/data/diagnosis_corpus/held_out/throughput_slurm_job_time_limit_sized_for_weekly_set_runs_monthly_set/run
JOB=$(sbatch --parsable monthly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
