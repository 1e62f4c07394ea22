#!/bin/bash
# submit.sh: the weekly eval as one Slurm job (the CI step waits up to 90 s for it to start and finish)
cd /work/h114/tests/data/diagnosis_corpus/hundred_and_fourteenth_held_out/infra_slurm_admins_cap_partition_max_cpus_per_node_at_one_for_a_colocated_service_so_two_cpu_eval_job_pends_partitionconfig/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted eval job $JOB"
timeout 90 bash -c "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 3; done"
if squeue -h -j $JOB 2>/dev/null | grep -q .; then
  squeue -j $JOB -o "%i %T %M %r"
  scontrol show job $JOB | grep -o 'JobState=[A-Z]* Reason=[^ ]*\|NumCPUs=[0-9]*\|Partition=[^ ]*'
  echo "ERROR: eval job $JOB did not finish in time: cancelling"
  scancel $JOB
  exit 1
fi
cat logs/eval_$JOB.log
