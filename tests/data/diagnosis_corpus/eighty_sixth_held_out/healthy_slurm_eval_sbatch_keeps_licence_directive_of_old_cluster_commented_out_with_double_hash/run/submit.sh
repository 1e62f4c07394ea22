#!/bin/bash
# submit.sh: the weekly eval, submitted and waited for
cd /work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/healthy_slurm_eval_sbatch_keeps_licence_directive_of_old_cluster_commented_out_with_double_hash/run
export MODEL_URL=http://127.0.0.1:46143/v1
sbatch --wait eval.sbatch
echo "sbatch --wait returned $?"
ls -l rollouts.jsonl rollouts_reward_profiling.jsonl 2>&1
