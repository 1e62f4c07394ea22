#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its state
cd /work/h94/tests/data/diagnosis_corpus/ninety_fourth_held_out/healthy_slurm_eval_job_ends_with_grep_c_of_traceback_lines_which_exits_1_on_none_so_slurm_marks_the_clean_job_failed/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB | grep -o 'JobState=[A-Z]* Reason=[A-Za-z]*' || true
scontrol show job $JOB | grep -o ' ExitCode=[0-9:]*' || true
