#!/bin/bash
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_reports_usage_of_scratch_path_missing_on_node/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
