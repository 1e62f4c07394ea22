#!/bin/bash
# submit.sh: the weekly eval, plus a clean-up job that runs only if the eval fails (afternotok)
cd /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/healthy_slurm_cleanup_job_chained_afternotok_to_the_eval_stays_pending_with_dependency_never_satisfied/run
EVAL=$(sbatch --parsable eval.sbatch)
echo $EVAL >> job_ids.txt
CLEAN=$(sbatch --parsable --job-name=weekly-eval-cleanup --dependency=afternotok:$EVAL --time=2 --mem=100M \
  --output=/work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/healthy_slurm_cleanup_job_chained_afternotok_to_the_eval_stays_pending_with_dependency_never_satisfied/run/logs/cleanup_%j.log \
  --wrap "rm -f /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/healthy_slurm_cleanup_job_chained_afternotok_to_the_eval_stays_pending_with_dependency_never_satisfied/run/rollouts.jsonl /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/healthy_slurm_cleanup_job_chained_afternotok_to_the_eval_stays_pending_with_dependency_never_satisfied/run/rollouts_failures.jsonl; echo removed the failed eval's rollouts")
echo $CLEAN >> job_ids.txt
echo "submitted eval $EVAL and its clean-up $CLEAN (afternotok:$EVAL)"
while squeue -h -j $EVAL 2>/dev/null | grep -q .; do sleep 2; done
echo "eval job $EVAL left the queue"
sleep 6
squeue -u $(id -un) -o "%.8i %.22j %.9T %r"
