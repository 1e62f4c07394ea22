#!/bin/bash
# submit.sh: the weekly eval as one Slurm job
cd /work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/healthy_slurm_eval_job_team_preamble_caps_cpu_time_with_ulimit_t_far_above_what_the_eval_uses/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
