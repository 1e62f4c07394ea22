#!/bin/bash
# submit.sh: the weekly eval as a three-shard job array, then a merge job that profiles the merged rollouts
cd /work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/config_slurm_merge_job_chained_afterok_to_array_task_zero_only_so_it_merges_while_the_last_shard_still_runs/run
export MODEL_URL=http://127.0.0.1:36547/v1
/work/wt-h86/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
split -n l/3 -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shard_
ARRAY=$(sbatch --parsable shard.sbatch)
echo "shard array job $ARRAY"
DEP=afterok:${ARRAY}_0   # the array job (squeue shows it as <id>_0)
MERGE=$(sbatch --parsable --dependency=$DEP merge.sbatch)
echo "merge job $MERGE (dependency $DEP)"
sleep 3
squeue -o "%i %j %T %r"
timeout 200 bash -c "while squeue -h -j $ARRAY,$MERGE 2>/dev/null | grep -q .; do sleep 2; done"
echo "all jobs left the queue"
wc -l out_0*/rollouts.jsonl rollouts.jsonl
