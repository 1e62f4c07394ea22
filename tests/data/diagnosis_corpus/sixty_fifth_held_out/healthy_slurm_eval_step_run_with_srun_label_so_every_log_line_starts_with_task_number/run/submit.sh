#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h65/tests/data/diagnosis_corpus/sixty_fifth_held_out/healthy_slurm_eval_step_run_with_srun_label_so_every_log_line_starts_with_task_number/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
