#!/bin/bash
# submit the shard array, wait for it, profile every shard
cd /work/wt-h23/tests/data/diagnosis_corpus/held_out/config_slurm_sbatch_directives_placed_after_first_command/run
JOB=$(sbatch --parsable collect_shards.sbatch)
echo "submitted job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JOB finished"
for s in 0 1 2 3; do
  echo "== profile of shard $s"
  /work/wt-h23/.venv/bin/gym-pipeline profile --inputs shards/$s/rollouts_materialized_inputs.jsonl --rollouts shards/$s/rollouts.jsonl \
    || echo "shard $s: profile failed"
done
