#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h108/tests/data/diagnosis_corpus/hundred_and_eighth_held_out/healthy_slurm_job_records_eval_tools_commit_with_git_rev_parse_in_rsync_copy_so_git_prints_fatal_not_a_git_repository/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
