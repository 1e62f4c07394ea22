#!/bin/bash
# submit.sh CHECKPOINT_DIR: the weekly eval of a checkpoint
cd /work/wt-h72/tests/data/diagnosis_corpus/seventy_second_held_out/cache_resume_slurm_job_stages_checkpoint_to_node_scratch_with_cp_no_clobber_so_last_weeks_weights_are_served/run
JOB=$(sbatch --parsable eval.sbatch $1)
echo "submitted job $JOB for $1"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 3; done
echo "job $JOB finished"
