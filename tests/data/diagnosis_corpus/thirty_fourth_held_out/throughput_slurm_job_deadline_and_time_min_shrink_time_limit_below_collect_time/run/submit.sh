#!/bin/bash
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/throughput_slurm_job_deadline_and_time_min_shrink_time_limit_below_collect_time/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
