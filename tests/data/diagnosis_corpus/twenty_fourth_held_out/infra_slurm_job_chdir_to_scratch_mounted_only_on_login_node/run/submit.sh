#!/bin/bash
# on the login node: prepare the run in scratch, submit the collection, wait
mkdir -p /tmp/ho-infra_slurm_job_chdi-0yne32d5/scratch/evals/weekly
cp /work/wt-h24/tests/data/diagnosis_corpus/held_out/infra_slurm_job_chdir_to_scratch_mounted_only_on_login_node/run/string_match.jsonl /tmp/ho-infra_slurm_job_chdi-0yne32d5/scratch/evals/weekly/
cd /tmp/ho-infra_slurm_job_chdi-0yne32d5/scratch/evals/weekly
/work/wt-h24/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
JOB=$(sbatch --parsable /work/wt-h24/tests/data/diagnosis_corpus/held_out/infra_slurm_job_chdir_to_scratch_mounted_only_on_login_node/run/collect.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
ls -l /tmp/ho-infra_slurm_job_chdi-0yne32d5/scratch/evals/weekly
