#!/bin/bash
# submit.sh: the GPU partition when this cluster has one, else the default partition
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/healthy_slurm_submit_tries_gpu_partition_first_then_default_partition/run
JOB=$(sbatch --parsable --partition=gpu eval.sbatch) || JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
