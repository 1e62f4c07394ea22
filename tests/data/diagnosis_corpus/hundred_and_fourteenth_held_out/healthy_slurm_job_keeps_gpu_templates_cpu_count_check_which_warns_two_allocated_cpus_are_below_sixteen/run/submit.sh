#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h114/tests/data/diagnosis_corpus/hundred_and_fourteenth_held_out/healthy_slurm_job_keeps_gpu_templates_cpu_count_check_which_warns_two_allocated_cpus_are_below_sixteen/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
