#!/bin/bash
# submit.sh: the weekly eval, held back a little so that it starts after the nightly checkpoint sync has finished
cd /work/wt-h65/tests/data/diagnosis_corpus/sixty_fifth_held_out/healthy_slurm_eval_submitted_with_begin_delay_sits_pending_on_begintime_before_it_runs/run
JOB=$(sbatch --parsable --begin=now+20 eval.sbatch)
echo "submitted job $JOB (--begin=now+20)"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do
  squeue -h -j $JOB -o '%i %j %T %r' 2>/dev/null
  sleep 4
done
echo "job $JOB finished"
