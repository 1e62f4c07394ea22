#!/bin/bash
# submit.sh: the weekly eval on the Slurm cluster
cd /work/wt-h84/tests/data/diagnosis_corpus/eighty_fourth_held_out/healthy_slurm_eval_sbatch_ported_from_pbs_submitted_with_ignore_pbs_so_its_leftover_walltime_line_is_inert/run
sbatch --wait --ignore-pbs eval.sbatch
echo "sbatch --wait returned $?"
