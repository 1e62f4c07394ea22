#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h48/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_lists_qos_limits_with_sacctmgr_on_cluster_without_accounting_database/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
