#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_reports_team_usage_with_sreport_on_cluster_without_slurmdbd/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
