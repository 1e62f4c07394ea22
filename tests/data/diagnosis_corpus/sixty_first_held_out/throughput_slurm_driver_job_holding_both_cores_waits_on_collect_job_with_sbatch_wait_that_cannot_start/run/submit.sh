#!/bin/bash
# submit.sh: submit the weekly eval driver and wait for it
cd /work/wt-h61/tests/data/diagnosis_corpus/sixty_first_held_out/throughput_slurm_driver_job_holding_both_cores_waits_on_collect_job_with_sbatch_wait_that_cannot_start/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
echo $JOB >> job_ids.txt
while squeue -h -j $JOB 2>/dev/null | grep -q .; do
  squeue -h -o '%i %j %T %r %M'   # our jobs, every 10 s
  sleep 10
done
echo "job $JOB finished"
