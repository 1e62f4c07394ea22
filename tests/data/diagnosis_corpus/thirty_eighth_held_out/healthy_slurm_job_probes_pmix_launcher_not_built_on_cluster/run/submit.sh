#!/bin/bash
cd /work/wt-h38/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_probes_pmix_launcher_not_built_on_cluster/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
