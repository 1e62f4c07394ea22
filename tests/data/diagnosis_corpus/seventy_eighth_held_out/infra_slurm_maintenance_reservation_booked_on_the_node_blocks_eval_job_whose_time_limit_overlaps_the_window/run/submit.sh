#!/bin/bash
# submit.sh (CI step, 60 s to get the eval started): submit the weekly eval and follow it
cd /work/wt-h78/tests/data/diagnosis_corpus/seventy_eighth_held_out/infra_slurm_maintenance_reservation_booked_on_the_node_blocks_eval_job_whose_time_limit_overlaps_the_window/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
for i in $(seq 30); do
  STATE=$(squeue -h -j $JOB -o '%T %r')
  echo "$(date +%T) job $JOB: ${STATE:-gone}"
  case "$STATE" in RUNNING*|"") break ;; esac
  sleep 2
done
if [ -n "$STATE" ] && [ "${STATE%% *}" = PENDING ]; then
  echo "job $JOB did not start within the CI budget; cancelling it"
  scontrol show job $JOB | grep -E 'JobState|TimeLimit|Reason'
  scancel $JOB
  exit 1
fi
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
