#!/bin/bash
cd /work/wt-h30/tests/data/diagnosis_corpus/held_out/infra_slurm_job_library_path_holds_truncated_libm_from_failed_sync/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
