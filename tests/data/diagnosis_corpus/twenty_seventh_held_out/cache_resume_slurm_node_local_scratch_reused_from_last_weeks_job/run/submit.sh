#!/bin/bash
cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/cache_resume_slurm_node_local_scratch_reused_from_last_weeks_job/run
JOB=$(sbatch --parsable nightly.sbatch http://127.0.0.1:44663/v1)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
