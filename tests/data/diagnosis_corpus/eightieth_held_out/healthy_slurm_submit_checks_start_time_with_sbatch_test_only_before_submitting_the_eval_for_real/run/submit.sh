#!/bin/bash
# submit.sh: ask the scheduler when the eval would start (--test-only submits nothing), then submit it for real
cd /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/healthy_slurm_submit_checks_start_time_with_sbatch_test_only_before_submitting_the_eval_for_real/run
sbatch --test-only eval.sbatch
JOB=$(sbatch --parsable eval.sbatch)
echo $JOB >> job_ids.txt
echo "submitted $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
