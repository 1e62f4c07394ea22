#!/bin/bash
# weekly eval, started by cron (cron runs it from the home folder)
cd /tmp/ho-config_slurm_job_cds-uqzgnwsw/home
JOB=$(sbatch --parsable /work/wt-h38/tests/data/diagnosis_corpus/held_out/config_slurm_job_cds_to_submit_dir_but_cron_submits_from_home/run/eval.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
