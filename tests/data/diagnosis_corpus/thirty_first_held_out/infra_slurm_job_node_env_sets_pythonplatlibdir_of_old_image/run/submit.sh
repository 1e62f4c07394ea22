#!/bin/bash
cd /work/wt-h31/tests/data/diagnosis_corpus/held_out/infra_slurm_job_node_env_sets_pythonplatlibdir_of_old_image/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
