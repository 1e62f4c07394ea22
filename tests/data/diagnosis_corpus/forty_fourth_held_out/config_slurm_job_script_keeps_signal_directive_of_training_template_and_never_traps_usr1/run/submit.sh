#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/config_slurm_job_script_keeps_signal_directive_of_training_template_and_never_traps_usr1/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 1; done
scontrol show job $JOB 2>/dev/null | grep -oE '(JobState|ExitCode)=[^ ]+'
echo "job $JOB finished $(date +%T)"
