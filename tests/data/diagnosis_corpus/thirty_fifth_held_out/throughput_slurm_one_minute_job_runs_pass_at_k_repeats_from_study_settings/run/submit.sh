#!/bin/bash
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/throughput_slurm_one_minute_job_runs_pass_at_k_repeats_from_study_settings/run
JOB=$(sbatch --parsable eval.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
