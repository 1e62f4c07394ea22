#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_asks_sstat_for_its_memory_before_any_job_step_has_run/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
