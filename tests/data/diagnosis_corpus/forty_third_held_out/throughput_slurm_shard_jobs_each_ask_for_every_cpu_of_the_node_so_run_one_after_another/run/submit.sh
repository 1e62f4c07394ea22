#!/bin/bash
# submit.sh: materialize, one collect job per shard (in parallel), then profile; the CI gives it 30 s
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/throughput_slurm_shard_jobs_each_ask_for_every_cpu_of_the_node_so_run_one_after_another/run
/work/wt-h43/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
rm -rf shards && mkdir shards && split -n l/3 -d rollouts_materialized_inputs.jsonl shards/part_
JOBS=""
for shard in $(ls shards); do JOBS="$JOBS $(sbatch --parsable shard.sbatch $shard)"; done
echo "submitted shard jobs:$JOBS"
echo $JOBS > job_ids.txt
sleep 3; squeue -h -o '%i %t %r' -j $(echo $JOBS | tr ' ' ',')
for i in $(seq 1 15); do
  [ -z "$(squeue -h -j $(echo $JOBS | tr ' ' ',') 2>/dev/null)" ] && break
  sleep 2
done
if [ -n "$(squeue -h -j $(echo $JOBS | tr ' ' ',') 2>/dev/null)" ]; then
  echo "shard jobs still queued or running after the budget:"; squeue -h -o '%i %t %r %M' -j $(echo $JOBS | tr ' ' ',')
  scancel $JOBS
  exit 1
fi
cat shards/*.rollouts.jsonl > rollouts.jsonl
/work/wt-h43/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
