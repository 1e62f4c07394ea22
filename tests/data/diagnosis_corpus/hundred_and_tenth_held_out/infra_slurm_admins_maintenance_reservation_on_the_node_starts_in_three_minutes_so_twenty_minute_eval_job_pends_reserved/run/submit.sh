#!/bin/bash
# submit.sh: the weekly eval as one Slurm job; the CI step waits up to 2 minutes, then shows the log and state
cd /work/h110/tests/data/diagnosis_corpus/hundred_and_tenth_held_out/infra_slurm_admins_maintenance_reservation_on_the_node_starts_in_three_minutes_so_twenty_minute_eval_job_pends_reserved/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
for i in $(seq 120); do squeue -h -j $JOB 2>/dev/null | grep -q . || break; sleep 1; done
squeue -j $JOB -o "%.10i %.12j %.9T %.10l %R" 2>/dev/null
cat logs/eval_$JOB.log 2>/dev/null || echo "no job log yet (logs/eval_$JOB.log)"
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
