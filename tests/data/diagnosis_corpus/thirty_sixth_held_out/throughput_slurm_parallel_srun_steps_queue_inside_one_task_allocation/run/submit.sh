#!/bin/bash
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/throughput_slurm_parallel_srun_steps_queue_inside_one_task_allocation/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
