#!/bin/bash
cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_loads_environment_modules_missing_on_node/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
