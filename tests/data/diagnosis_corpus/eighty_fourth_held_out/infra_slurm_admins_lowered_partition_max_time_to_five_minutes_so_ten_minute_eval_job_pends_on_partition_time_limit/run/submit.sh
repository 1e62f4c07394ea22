#!/bin/bash
# submit.sh: the nightly CI step (budget: 90 s) - submit the eval job and wait for it
cd /work/wt-h84/tests/data/diagnosis_corpus/eighty_fourth_held_out/infra_slurm_admins_lowered_partition_max_time_to_five_minutes_so_ten_minute_eval_job_pends_on_partition_time_limit/run
export MODEL_URL=http://127.0.0.1:35645/v1
sinfo -o "%P %a %l %D %t"
timeout 90 sbatch --wait eval.sbatch
code=$?
if [ $code -eq 124 ]; then
  echo "CI budget of 90 s used up while waiting for the eval job"
  squeue -u $(id -un) -o "%i %j %T %r"
fi
echo "sbatch --wait ended with $code"
