#!/bin/bash
cd /work/wt-h28/tests/data/diagnosis_corpus/held_out/healthy_slurm_job_copies_results_to_archive_mount_missing_on_node/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
