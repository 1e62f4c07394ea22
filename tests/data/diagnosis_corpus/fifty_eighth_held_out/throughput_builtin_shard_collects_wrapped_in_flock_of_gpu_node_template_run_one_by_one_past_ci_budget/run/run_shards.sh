#!/bin/bash
# run_shards.sh: the weekly eval in 4 shards collected side by side; CI gives the collect step 30 s
cd /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/throughput_builtin_shard_collects_wrapped_in_flock_of_gpu_node_template_run_one_by_one_past_ci_budget/run
collect_shard() {
  # from the GPU node template: one job per GPU at a time
  flock /tmp/ho-throughput_builtin_s-b_1lz3ds/gpu0.lock /work/wt-h58/.venv/bin/gym-pipeline collect --inputs shard$1/rollouts_materialized_inputs.jsonl --output shard$1/rollouts.jsonl \
    --model-url http://127.0.0.1:41719/v1 --env string_match --concurrency 8
}
for s in 1 2 3 4; do
  mkdir -p shard$s
  /work/wt-h58/.venv/bin/gym-pipeline materialize --input shard$s.jsonl --num-repeats 2 --agent string_match_simple_agent \
    --output shard$s/rollouts_materialized_inputs.jsonl
done
echo "== collect (4 shards at once, 30 s budget)"
export -f collect_shard
timeout 30 bash -c 'for s in 1 2 3 4; do collect_shard $s & done; wait'
echo "collect step exit $?"
for s in 1 2 3 4; do
  echo "== profile shard$s"
  /work/wt-h58/.venv/bin/gym-pipeline profile --inputs shard$s/rollouts_materialized_inputs.jsonl --rollouts shard$s/rollouts.jsonl
done
