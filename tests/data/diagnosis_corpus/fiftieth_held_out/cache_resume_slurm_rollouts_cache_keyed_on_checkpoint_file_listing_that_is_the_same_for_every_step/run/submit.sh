#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h50/tests/data/diagnosis_corpus/held_out/cache_resume_slurm_rollouts_cache_keyed_on_checkpoint_file_listing_that_is_the_same_for_every_step/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
