#!/bin/bash
# submit.sh: the weekly eval as one Slurm job
cd /work/wt-h90/tests/data/diagnosis_corpus/ninetieth_held_out/config_slurm_eval_job_counts_steps_with_post_increment_under_set_e_so_zero_result_ends_job_after_materialize/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
