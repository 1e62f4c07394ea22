#!/bin/bash
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/config_slurm_sbatch_output_in_missing_logs_folder/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
/work/wt-h26/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
