#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log
cd /work/h100/tests/data/diagnosis_corpus/hundredth_held_out/healthy_slurm_eval_job_archives_results_by_absolute_path_so_tar_prints_removing_leading_slash_from_member_names/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|UserId=[^ ]*' || true
