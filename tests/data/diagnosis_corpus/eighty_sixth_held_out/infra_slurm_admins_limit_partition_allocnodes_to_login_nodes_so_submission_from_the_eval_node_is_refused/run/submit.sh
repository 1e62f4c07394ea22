#!/bin/bash
# submit.sh: the weekly eval, submitted from the eval node (where the model server runs) and waited for
cd /work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/infra_slurm_admins_limit_partition_allocnodes_to_login_nodes_so_submission_from_the_eval_node_is_refused/run
export MODEL_URL=http://127.0.0.1:38885/v1
echo "submitting from $(hostname)"
sbatch --wait eval.sbatch
echo "sbatch --wait returned $?"
ls -l rollouts.jsonl 2>&1
