#!/bin/bash
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_prints_priority_factors_without_multifactor_plugin/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
