#!/bin/bash
# submit.sh: submit the weekly eval and wait for it
cd /work/wt-h68/tests/data/diagnosis_corpus/sixty_eighth_held_out/infra_slurm_user_env_file_points_slurm_conf_at_personal_copy_with_controller_port_of_the_old_cluster/run
source ./cluster_env.sh
echo "SLURM_CONF=$SLURM_CONF"
JOB=$(sbatch --parsable -p $EVAL_PARTITION eval.sbatch) || { echo "sbatch failed"; exit 1; }
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 3; done
echo "job $JOB finished"
