#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_prints_its_priority_factors_with_sprio_under_basic_priority_plugin/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
