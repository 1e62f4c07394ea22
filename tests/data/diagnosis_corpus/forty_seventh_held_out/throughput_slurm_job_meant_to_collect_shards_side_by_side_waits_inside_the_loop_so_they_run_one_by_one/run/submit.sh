#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h47/tests/data/diagnosis_corpus/held_out/throughput_slurm_job_meant_to_collect_shards_side_by_side_waits_inside_the_loop_so_they_run_one_by_one/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
