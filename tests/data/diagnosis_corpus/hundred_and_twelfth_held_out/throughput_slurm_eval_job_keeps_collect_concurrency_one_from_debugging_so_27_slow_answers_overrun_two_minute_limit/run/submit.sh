#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h112/tests/data/diagnosis_corpus/hundred_and_twelfth_held_out/throughput_slurm_eval_job_keeps_collect_concurrency_one_from_debugging_so_27_slow_answers_overrun_two_minute_limit/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
