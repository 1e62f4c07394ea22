#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/throughput_slurm_one_minute_job_spends_most_of_it_in_warm_up_sleep_copied_from_gpu_template/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
