#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/config_slurm_eval_sbatch_keeps_test_only_directive_from_a_start_time_check/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
