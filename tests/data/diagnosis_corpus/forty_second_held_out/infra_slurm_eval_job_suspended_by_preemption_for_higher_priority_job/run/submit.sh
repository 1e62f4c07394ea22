#!/bin/bash
# submit.sh: submit the weekly eval and wait for it (the CI gives it 60 s)
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/infra_slurm_eval_job_suspended_by_preemption_for_higher_priority_job/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
for i in $(seq 1 30); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || { echo "job $JOB finished"; exit 0; }
  sleep 2
done
echo "job $JOB has not finished after 60 s:"
scontrol show job $JOB | grep -E -o '(JobState|Reason|RunTime|SuspendTime)=[^ ]+'
scancel $JOB
exit 1
