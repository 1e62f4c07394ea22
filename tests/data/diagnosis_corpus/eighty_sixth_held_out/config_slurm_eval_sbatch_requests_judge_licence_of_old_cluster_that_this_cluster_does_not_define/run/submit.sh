#!/bin/bash
# submit.sh: the weekly eval, submitted and waited for
cd /work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/config_slurm_eval_sbatch_requests_judge_licence_of_old_cluster_that_this_cluster_does_not_define/run
export MODEL_URL=http://127.0.0.1:33615/v1
sbatch --wait eval.sbatch
echo "sbatch --wait returned $?"
ls -l rollouts.jsonl rollouts_reward_profiling.jsonl 2>&1
