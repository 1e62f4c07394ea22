#!/bin/bash
# nightly: the token statistics of the 8 training shards (an array), then the eval; the eval must be done within
# DEADLINE_S for the morning report, else it is cancelled and the report says so
cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/throughput_slurm_eval_job_queued_behind_own_preprocessing_array/run
PRE=$(sbatch --parsable --array=0-7 tokstats.sbatch)
echo "tokstats array $PRE"
JOB=$(sbatch --parsable nightly.sbatch)
echo "eval job $JOB"
DEADLINE_S=60
for i in $(seq $((DEADLINE_S / 2))); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || break
  sleep 2
done
squeue -h -o "%i %j %T %r"
if squeue -h -j $JOB 2>/dev/null | grep -q .; then
  echo "eval job $JOB not done after $DEADLINE_S s: cancelling it"
  scancel $JOB
fi
/work/wt-h27/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
