#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/config_slurm_submit_script_cancels_leftover_jobs_by_name_after_submitting_so_cancels_its_own_job/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
# cancel last week's eval if it is still queued or running (it blocks the node)
scancel --name=sm-weekly-eval && echo "cancelled leftover sm-weekly-eval jobs"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
