#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/config_slurm_time_directive_one_colon_zero_zero_is_one_minute_not_one_hour/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
