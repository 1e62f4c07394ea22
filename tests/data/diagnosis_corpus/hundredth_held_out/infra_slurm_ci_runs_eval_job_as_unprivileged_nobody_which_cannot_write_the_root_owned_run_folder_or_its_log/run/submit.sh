#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log
# CI policy 2026-11: batch jobs run unprivileged (nobody) unless the repo configures a service account
cd /work/h100/tests/data/diagnosis_corpus/hundredth_held_out/infra_slurm_ci_runs_eval_job_as_unprivileged_nobody_which_cannot_write_the_root_owned_run_folder_or_its_log/run
JOB=$(sbatch --parsable --uid=nobody --gid=nogroup eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|UserId=[^ ]*' || true
ls -ld . logs
