#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h74/tests/data/diagnosis_corpus/seventy_fourth_held_out/healthy_slurm_eval_job_output_sent_to_dev_null_while_each_step_tees_its_own_log/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do squeue -h -j $JOB -o '%i %j %T %M %r' 2>/dev/null; sleep 5; done
echo "job $JOB finished"
