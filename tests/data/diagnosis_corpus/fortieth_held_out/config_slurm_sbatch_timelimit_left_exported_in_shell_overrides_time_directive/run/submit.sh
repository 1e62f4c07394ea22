#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/config_slurm_sbatch_timelimit_left_exported_in_shell_overrides_time_directive/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
scontrol show job $JOB | grep -E -o '(JobState|TimeLimit)=[^ ]+'
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
