#!/bin/bash
# submit.sh: the weekly eval as one Slurm job, then its log and state
cd /work/h112/tests/data/diagnosis_corpus/hundred_and_twelfth_held_out/infra_slurm_admins_set_partition_state_drain_for_upgrade_so_sbatch_refuses_the_eval_job_as_partition_not_available/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 240 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done"
echo "job $JOB left the queue"

cat logs/eval_$JOB.log
scontrol show job $JOB 2>/dev/null | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|ExitCode=[0-9:]*\|TimeLimit=[^ ]*' || true
