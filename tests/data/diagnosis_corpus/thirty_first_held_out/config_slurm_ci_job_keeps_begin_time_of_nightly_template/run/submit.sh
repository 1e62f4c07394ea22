#!/bin/bash
# CI eval step: submit the eval job, wait up to 60 s for it, cancel it when the step's budget is over
cd /work/wt-h31/tests/data/diagnosis_corpus/held_out/config_slurm_ci_job_keeps_begin_time_of_nightly_template/run
JOB=$(sbatch --parsable ci_eval.sbatch)
echo "submitted job $JOB"
for i in $(seq 30); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || break
  sleep 2
done
squeue -j $JOB -o '%.10i %.9P %.12j %.8T %.10M %R'
if squeue -h -j $JOB 2>/dev/null | grep -q .; then
  echo "job $JOB still queued after 60 s: cancelling (CI step budget)"
  scancel $JOB
fi
