#!/bin/bash
cd /work/wt-h33/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_mails_start_notice_without_mail_command/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
