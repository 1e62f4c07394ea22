#!/bin/bash
cd /work/wt-h37/tests/data/diagnosis_corpus/held_out/throughput_slurm_job_waits_on_shared_model_server_lock_until_time_limit/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
