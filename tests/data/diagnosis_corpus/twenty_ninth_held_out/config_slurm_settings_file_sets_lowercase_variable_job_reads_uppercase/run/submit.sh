#!/bin/bash
cd /work/wt-h29/tests/data/diagnosis_corpus/held_out/config_slurm_settings_file_sets_lowercase_variable_job_reads_uppercase/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
