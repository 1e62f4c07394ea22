#!/bin/bash
cd /work/wt-h37/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_reports_its_efficiency_with_seff_not_installed/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
