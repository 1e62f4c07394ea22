#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log
cd /work/h102/tests/data/diagnosis_corpus/hundred_and_second_held_out/healthy_slurm_eval_job_runs_make_whose_clean_prerequisite_removes_absent_cache_folder_so_make_prints_error_1_ignored/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|UserId=[^ ]*' || true
