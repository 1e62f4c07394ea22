#!/bin/bash
# submit.sh: submit the weekly eval and wait for it (the CI gives it 45 s)
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/config_slurm_template_singleton_dependency_waits_for_users_other_job_of_same_name/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
for i in $(seq 1 22); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || { echo "job $JOB finished"; exit 0; }
  sleep 2
done
echo "job $JOB has not finished after 45 s:"
scontrol show job $JOB | grep -E -o '(JobName|JobState|Reason|Dependency)=[^ ]+'
scancel $JOB
exit 1
