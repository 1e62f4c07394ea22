#!/bin/bash
# collect, then profile once the collect job succeeded
cd /work/wt-h37/tests/data/diagnosis_corpus/held_out/config_slurm_dependent_profile_job_given_sbatch_sentence_instead_of_job_id/run
JOB=$(sbatch collect.sbatch)
echo "collect: $JOB"
sbatch --dependency=afterok:$JOB profile.sbatch
echo "== submitted"
