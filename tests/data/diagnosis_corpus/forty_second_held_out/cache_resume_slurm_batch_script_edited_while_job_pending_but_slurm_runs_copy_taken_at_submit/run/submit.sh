#!/bin/bash
# submit.sh: queue the eval behind the checkpoint sync job
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/cache_resume_slurm_batch_script_edited_while_job_pending_but_slurm_runs_copy_taken_at_submit/run
SYNC=$(sbatch --parsable --job-name=ckpt-sync --time=5 --output=logs/sync_%j.log --wrap 'sleep 20; echo checkpoint synced')
JOB=$(sbatch --parsable --dependency=afterok:$SYNC eval.sbatch)
echo "submitted checkpoint sync $SYNC and eval $JOB (after $SYNC)"
echo $JOB > job_id.txt
