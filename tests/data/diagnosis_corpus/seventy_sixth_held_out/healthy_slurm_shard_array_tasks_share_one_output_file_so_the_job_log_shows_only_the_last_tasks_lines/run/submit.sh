#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h76/tests/data/diagnosis_corpus/seventy_sixth_held_out/healthy_slurm_shard_array_tasks_share_one_output_file_so_the_job_log_shows_only_the_last_tasks_lines/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
