#!/bin/bash
# submit.sh: collect job, then the profile job once collect has succeeded; every job id is kept in job_ids.txt
cd /work/wt-h53/tests/data/diagnosis_corpus/fifty_third_held_out/cache_resume_slurm_profile_job_depends_on_first_id_of_appended_job_id_file_from_last_week/run
sbatch --parsable collect.sbatch >> job_ids.txt || exit 1
COLLECT=$(head -n 1 job_ids.txt)
echo "collect job: $COLLECT"
PROFILE=$(sbatch --parsable --dependency=afterok:$COLLECT --export=ALL,AFTER=$COLLECT profile.sbatch) || exit 1
echo $PROFILE >> job_ids.txt
echo "profile job: $PROFILE (afterok:$COLLECT)"
START=$SECONDS
while squeue -h -j $(paste -sd, job_ids.txt) 2>/dev/null | grep -q .; do
  (( SECONDS - START > 300 )) && { echo "jobs still queued or running after 300 s, giving up"; exit 1; }
  sleep 2
done
echo "jobs finished"
