#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h104/tests/data/diagnosis_corpus/hundred_and_fourth_held_out/throughput_resources_slurm_job_keeps_concurrency_2_of_an_old_per_user_limit_so_80_slow_completions_outlast_one_minute_time_limit/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobName=[^ ]*\|JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
