#!/bin/bash
# nightly: submit the eval; it must be done within DEADLINE_S for the morning report, else it is cancelled
cd /work/wt-h28/tests/data/diagnosis_corpus/held_out/infra_slurm_partition_set_down_for_maintenance_job_never_starts/run
JOB=$(sbatch --parsable nightly.sbatch)
echo "eval job $JOB"
DEADLINE_S=40
for i in $(seq $((DEADLINE_S / 2))); do
  squeue -h -j $JOB 2>/dev/null | grep -q . || break
  sleep 2
done
squeue -h -o "%i %j %P %T %r"
sinfo
if squeue -h -j $JOB 2>/dev/null | grep -q .; then
  echo "eval job $JOB not done after $DEADLINE_S s: cancelling it"
  scancel $JOB
fi
/work/wt-h28/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
