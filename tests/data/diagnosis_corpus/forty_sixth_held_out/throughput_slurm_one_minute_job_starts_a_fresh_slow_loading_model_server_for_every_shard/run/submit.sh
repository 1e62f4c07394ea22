#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/throughput_slurm_one_minute_job_starts_a_fresh_slow_loading_model_server_for_every_shard/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
