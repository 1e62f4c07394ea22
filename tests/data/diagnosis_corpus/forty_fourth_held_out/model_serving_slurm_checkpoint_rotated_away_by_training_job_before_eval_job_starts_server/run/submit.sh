#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/model_serving_slurm_checkpoint_rotated_away_by_training_job_before_eval_job_starts_server/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB > job_id.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
