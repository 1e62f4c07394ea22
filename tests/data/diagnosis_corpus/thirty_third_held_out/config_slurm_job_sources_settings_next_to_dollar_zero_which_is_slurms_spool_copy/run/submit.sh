#!/bin/bash
cd /work/wt-h33/tests/data/diagnosis_corpus/held_out/config_slurm_job_sources_settings_next_to_dollar_zero_which_is_slurms_spool_copy/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
