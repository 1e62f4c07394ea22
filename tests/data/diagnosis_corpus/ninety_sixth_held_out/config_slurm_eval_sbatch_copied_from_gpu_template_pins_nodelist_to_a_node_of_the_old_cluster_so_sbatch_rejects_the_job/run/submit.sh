#!/bin/bash
# submit.sh: the weekly eval as one Slurm job (eval.sbatch started from the eval team's GPU template), then its log
cd /work/h96/tests/data/diagnosis_corpus/ninety_sixth_held_out/config_slurm_eval_sbatch_copied_from_gpu_template_pins_nodelist_to_a_node_of_the_old_cluster_so_sbatch_rejects_the_job/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
