#!/bin/bash
# submit.sh: the weekly eval on the Slurm cluster
cd /work/wt-h84/tests/data/diagnosis_corpus/eighty_fourth_held_out/config_slurm_eval_sbatch_ported_from_pbs_keeps_pbs_walltime_line_that_sbatch_honours_as_one_minute_time_limit/run
sbatch --wait  eval.sbatch
echo "sbatch --wait returned $?"
