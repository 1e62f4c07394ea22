#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h49/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_log_opened_in_append_mode_still_holds_last_weeks_failed_attempt/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished: $(sacct -n -X -j $JOB -o state 2>/dev/null | head -n 1)"
