#!/bin/bash
# submit.sh: the weekly eval as one Slurm job
cd /work/h92/tests/data/diagnosis_corpus/ninety_second_held_out/healthy_slurm_eval_job_log_opened_in_append_mode_still_shows_last_weeks_failed_run_above_this_weeks_clean_one/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/weekly_eval.log
