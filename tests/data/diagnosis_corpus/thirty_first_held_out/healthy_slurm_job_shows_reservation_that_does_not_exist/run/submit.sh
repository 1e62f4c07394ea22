#!/bin/bash
cd /work/wt-h31/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_shows_reservation_that_does_not_exist/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
