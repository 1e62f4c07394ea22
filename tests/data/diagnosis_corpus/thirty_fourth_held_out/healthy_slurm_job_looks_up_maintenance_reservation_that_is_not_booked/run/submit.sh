#!/bin/bash
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_looks_up_maintenance_reservation_that_is_not_booked/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
