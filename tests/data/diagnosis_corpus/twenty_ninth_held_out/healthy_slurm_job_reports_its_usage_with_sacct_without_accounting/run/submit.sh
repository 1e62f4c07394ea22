#!/bin/bash
cd /work/wt-h29/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_reports_its_usage_with_sacct_without_accounting/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
