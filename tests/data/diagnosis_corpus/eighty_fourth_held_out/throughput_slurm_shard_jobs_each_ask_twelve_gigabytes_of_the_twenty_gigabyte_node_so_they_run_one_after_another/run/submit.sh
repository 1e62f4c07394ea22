#!/bin/bash
# submit.sh: the weekly eval as two parallel shard jobs, then merge and profile (CI step budget: 75 s)
cd /work/wt-h84/tests/data/diagnosis_corpus/eighty_fourth_held_out/throughput_slurm_shard_jobs_each_ask_twelve_gigabytes_of_the_twenty_gigabyte_node_so_they_run_one_after_another/run
export MODEL_URL=http://127.0.0.1:46127/v1
/work/wt-h84/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
split -n l/2 -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shard_
A=$(sbatch --parsable --export=ALL,SHARD=00 shard.sbatch)
B=$(sbatch --parsable --export=ALL,SHARD=01 shard.sbatch)
echo "shard jobs $A $B"
sleep 3
squeue -o "%i %j %T %r %m"
if timeout 75 bash -c "while squeue -h -j $A,$B 2>/dev/null | grep -q .; do sleep 2; done"; then
  cat rollouts_00.jsonl rollouts_01.jsonl > rollouts.jsonl
  /work/wt-h84/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
else
  echo "CI budget of 75 s used up with shard jobs still queued or running:"
  squeue -o "%i %j %T %r %m"
fi
