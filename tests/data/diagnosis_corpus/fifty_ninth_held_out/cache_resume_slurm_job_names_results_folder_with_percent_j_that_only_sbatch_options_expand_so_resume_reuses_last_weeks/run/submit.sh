#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h59/tests/data/diagnosis_corpus/fifty_ninth_held_out/cache_resume_slurm_job_names_results_folder_with_percent_j_that_only_sbatch_options_expand_so_resume_reuses_last_weeks/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
