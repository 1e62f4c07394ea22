#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h47/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_shows_the_training_gpu_partition_on_a_cluster_that_has_none/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
