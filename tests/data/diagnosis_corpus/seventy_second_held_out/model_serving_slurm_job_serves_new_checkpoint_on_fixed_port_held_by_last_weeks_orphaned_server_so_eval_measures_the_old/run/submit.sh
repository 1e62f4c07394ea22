#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h72/tests/data/diagnosis_corpus/seventy_second_held_out/model_serving_slurm_job_serves_new_checkpoint_on_fixed_port_held_by_last_weeks_orphaned_server_so_eval_measures_the_old/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do squeue -h -j $JOB -o '%i %j %T %M %r' 2>/dev/null; sleep 5; done
echo "job $JOB finished"
