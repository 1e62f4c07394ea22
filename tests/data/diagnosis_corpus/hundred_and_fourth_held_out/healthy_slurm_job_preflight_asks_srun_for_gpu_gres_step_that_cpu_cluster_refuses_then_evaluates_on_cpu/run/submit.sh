#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h104/tests/data/diagnosis_corpus/hundred_and_fourth_held_out/healthy_slurm_job_preflight_asks_srun_for_gpu_gres_step_that_cpu_cluster_refuses_then_evaluates_on_cpu/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobName=[^ ]*\|JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
