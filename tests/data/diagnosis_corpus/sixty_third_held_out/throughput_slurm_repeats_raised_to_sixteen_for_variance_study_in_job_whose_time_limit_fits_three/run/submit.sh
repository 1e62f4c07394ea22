#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h63/tests/data/diagnosis_corpus/sixty_third_held_out/throughput_slurm_repeats_raised_to_sixteen_for_variance_study_in_job_whose_time_limit_fits_three/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
