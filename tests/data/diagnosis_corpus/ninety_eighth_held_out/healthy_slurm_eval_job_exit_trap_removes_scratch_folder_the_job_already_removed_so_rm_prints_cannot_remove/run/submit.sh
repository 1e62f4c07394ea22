#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log
cd /work/h98/tests/data/diagnosis_corpus/ninety_eighth_held_out/healthy_slurm_eval_job_exit_trap_removes_scratch_folder_the_job_already_removed_so_rm_prints_cannot_remove/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB | grep -o 'JobState=[A-Z]*' || true
