#!/bin/bash
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_cancels_its_background_monitor_step_at_the_end/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
