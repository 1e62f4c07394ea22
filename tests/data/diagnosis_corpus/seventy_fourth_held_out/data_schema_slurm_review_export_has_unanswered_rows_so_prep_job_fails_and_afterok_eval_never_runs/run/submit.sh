#!/bin/bash
# submit.sh (the CI step): prep, then the eval once prep has succeeded; the step gives up after a minute
cd /work/wt-h74/tests/data/diagnosis_corpus/seventy_fourth_held_out/data_schema_slurm_review_export_has_unanswered_rows_so_prep_job_fails_and_afterok_eval_never_runs/run
PREP=$(sbatch --parsable prep.sbatch)
echo $PREP >> job_ids.txt
JOB=$(sbatch --parsable --dependency=afterok:$PREP eval.sbatch)
echo $JOB >> job_ids.txt
echo "prep job $PREP, eval job $JOB (--dependency=afterok:$PREP)"
for i in $(seq 12); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || break
  squeue -h -j $PREP,$JOB -o '%i %j %T %r' 2>/dev/null
  sleep 5
done
squeue -h -j $JOB -o '%i %j %T %r' 2>/dev/null
ls -l rollouts.jsonl rollouts_reward_profiling.jsonl 2>&1
echo "CI step over"
