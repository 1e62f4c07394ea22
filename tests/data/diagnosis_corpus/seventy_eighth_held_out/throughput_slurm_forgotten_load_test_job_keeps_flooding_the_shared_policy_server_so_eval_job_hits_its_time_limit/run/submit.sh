#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h78/tests/data/diagnosis_corpus/seventy_eighth_held_out/throughput_slurm_forgotten_load_test_job_keeps_flooding_the_shared_policy_server_so_eval_job_hits_its_time_limit/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
