#!/bin/bash
# submit.sh: stage the tasks (a running job must not see the shared file change), then queue the eval behind the
# checkpoint sync job
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/cache_resume_slurm_submit_script_stages_tasks_at_submission_so_label_fix_while_pending_is_ignored/run
STAGE=staged/$(date +%Y%m%d-%H%M%S)
mkdir -p $STAGE && cp string_match.jsonl $STAGE/
echo "staged string_match.jsonl in $STAGE"
SYNC=$(sbatch --parsable --job-name=ckpt-sync --time=5 --output=logs/sync_%j.log --wrap 'sleep 20; echo checkpoint synced')
JOB=$(sbatch --parsable --dependency=afterok:$SYNC --export=ALL,DATA=$STAGE/string_match.jsonl eval.sbatch)
echo "submitted checkpoint sync $SYNC and eval $JOB (after $SYNC)"
echo $JOB > job_id.txt
