#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h106/tests/data/diagnosis_corpus/hundred_and_sixth_held_out/healthy_slurm_job_exit_trap_kills_heartbeat_loop_already_stopped_so_bash_prints_kill_no_such_process/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
