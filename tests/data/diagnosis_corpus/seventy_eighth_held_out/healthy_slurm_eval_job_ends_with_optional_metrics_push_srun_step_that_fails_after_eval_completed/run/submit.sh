#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h78/tests/data/diagnosis_corpus/seventy_eighth_held_out/healthy_slurm_eval_job_ends_with_optional_metrics_push_srun_step_that_fails_after_eval_completed/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
