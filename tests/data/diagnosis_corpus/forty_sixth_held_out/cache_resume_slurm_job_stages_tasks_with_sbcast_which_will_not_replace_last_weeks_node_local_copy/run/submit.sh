#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/cache_resume_slurm_job_stages_tasks_with_sbcast_which_will_not_replace_last_weeks_node_local_copy/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
