#!/bin/bash
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_checks_lustre_quota_without_lustre_client/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
