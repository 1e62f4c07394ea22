#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h63/tests/data/diagnosis_corpus/sixty_third_held_out/healthy_slurm_plain_job_log_named_with_array_pattern_gets_array_index_4294967294/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
