#!/bin/bash
# nightly: submit, wait, profile, then keep the job's record in the log
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/healthy_slurm_submit_prints_job_record_after_controller_purged_it/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
/work/wt-h25/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
sleep 8
echo "== job record"
scontrol show job $JOB
