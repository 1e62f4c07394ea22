#!/bin/bash
# publish.sh: submit the weekly eval, wait until its log says it is complete, then publish the profile
cd /work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/cache_resume_slurm_publish_script_waits_for_completion_line_in_append_mode_job_log_that_last_weeks_job_wrote/run
export MODEL_URL=http://127.0.0.1:43439/v1
sbatch eval.sbatch
until grep -q "EVAL COMPLETE" logs/weekly_eval.log 2>/dev/null; do sleep 5; done
echo "eval complete at $(date +%T): publishing"
mkdir -p published
cp rollouts_reward_profiling.jsonl published/weekly_profile.jsonl
wc -l published/weekly_profile.jsonl
