#!/bin/bash
# submit.sh: the weekly eval as one Slurm job (logs/ points at the node-local scratch, see README)
cd /work/wt-h90/tests/data/diagnosis_corpus/ninetieth_held_out/infra_slurm_job_log_folder_is_link_into_node_scratch_that_this_node_does_not_mount_so_the_job_fails_at_start/run
ls -l logs
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

scontrol show job $JOB 2>/dev/null | grep -E "JobState|StdOut"
cat logs/eval_$JOB.log
wc -l rollouts.jsonl
