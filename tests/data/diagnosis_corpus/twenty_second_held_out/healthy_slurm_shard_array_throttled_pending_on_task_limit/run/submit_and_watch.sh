#!/bin/bash
# submit the shard array and watch it until it is done
JOB=$(sbatch --parsable /work/wt-h22/tests/data/diagnosis_corpus/held_out/healthy_slurm_shard_array_throttled_pending_on_task_limit/run/collect_shards.sbatch)
echo "submitted array job $JOB"
while squeue -h -j $JOB 2>/dev/null | grep -q .; do
  squeue -r -h -j $JOB -o "%i %T %r"
  sleep 2
done
sacct -j $JOB 2>&1 | head -3
echo "array job $JOB finished"
