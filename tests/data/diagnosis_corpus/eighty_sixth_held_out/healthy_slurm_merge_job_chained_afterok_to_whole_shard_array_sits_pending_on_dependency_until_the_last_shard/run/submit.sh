#!/bin/bash
# submit.sh: the weekly eval as a three-shard job array, then a merge job that profiles the merged rollouts
cd /work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/healthy_slurm_merge_job_chained_afterok_to_whole_shard_array_sits_pending_on_dependency_until_the_last_shard/run
export MODEL_URL=http://127.0.0.1:40539/v1
/work/wt-h86/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
split -n l/3 -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shard_
ARRAY=$(sbatch --parsable shard.sbatch)
echo "shard array job $ARRAY"
DEP=afterok:$ARRAY   # every task of the array
MERGE=$(sbatch --parsable --dependency=$DEP merge.sbatch)
echo "merge job $MERGE (dependency $DEP)"
sleep 3
squeue -o "%i %j %T %r"
timeout 200 bash -c "while squeue -h -j $ARRAY,$MERGE 2>/dev/null | grep -q .; do sleep 2; done"
echo "all jobs left the queue"
wc -l out_0*/rollouts.jsonl rollouts.jsonl
