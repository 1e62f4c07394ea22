#!/bin/bash
# submit.sh: the weekly eval as one Slurm job
cd /work/wt-h90/tests/data/diagnosis_corpus/ninetieth_held_out/healthy_slurm_eval_job_arms_usr1_trap_for_its_signal_directive_and_finishes_long_before_it_could_fire/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
