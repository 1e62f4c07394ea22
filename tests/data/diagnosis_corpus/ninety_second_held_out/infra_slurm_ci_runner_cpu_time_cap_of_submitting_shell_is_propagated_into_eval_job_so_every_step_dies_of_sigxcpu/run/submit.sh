#!/bin/bash
# submit.sh: the weekly eval as one Slurm job
cd /work/h92/tests/data/diagnosis_corpus/ninety_second_held_out/infra_slurm_ci_runner_cpu_time_cap_of_submitting_shell_is_propagated_into_eval_job_so_every_step_dies_of_sigxcpu/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
