#!/bin/bash
# submit.sh: materialize, the shard jobs (an array), then profile; the CI gives it 40 s
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/throughput_slurm_shard_array_keeps_throttle_of_one_from_license_bound_template_so_shards_run_serially/run
/work/wt-h44/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
rm -rf shards && mkdir shards && split -n l/3 -d rollouts_materialized_inputs.jsonl shards/part_
JOB=$(sbatch --parsable shards.sbatch)
echo "submitted shard array $JOB"
echo $JOB > job_id.txt
sleep 4; squeue -h -o '%i %t %r' -j $JOB
for i in $(seq 1 18); do
  [ -z "$(squeue -h -j $JOB 2>/dev/null)" ] && break
  sleep 2
done
if [ -n "$(squeue -h -j $JOB 2>/dev/null)" ]; then
  echo "shard jobs still queued or running after the budget:"; squeue -h -o '%i %t %r %M' -j $JOB
  scancel $JOB
  exit 1
fi
cat shards/*.rollouts.jsonl > rollouts.jsonl
/work/wt-h44/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
