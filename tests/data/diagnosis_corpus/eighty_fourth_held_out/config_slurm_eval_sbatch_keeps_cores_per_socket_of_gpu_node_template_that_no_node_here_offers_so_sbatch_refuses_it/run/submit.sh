#!/bin/bash
# submit.sh: the weekly eval, submitted and waited for
cd /work/wt-h84/tests/data/diagnosis_corpus/eighty_fourth_held_out/config_slurm_eval_sbatch_keeps_cores_per_socket_of_gpu_node_template_that_no_node_here_offers_so_sbatch_refuses_it/run
export MODEL_URL=http://127.0.0.1:41925/v1
sbatch --wait eval.sbatch
echo "sbatch --wait returned $?"
ls -l rollouts.jsonl 2>&1
