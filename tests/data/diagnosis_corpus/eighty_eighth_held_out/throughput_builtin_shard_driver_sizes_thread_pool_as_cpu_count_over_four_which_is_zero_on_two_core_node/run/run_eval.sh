#!/bin/bash
# weekly eval in four shards collected side by side (run_shards.py)
cd /work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/throughput_builtin_shard_driver_sizes_thread_pool_as_cpu_count_over_four_which_is_zero_on_two_core_node/run
/work/wt-h88/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
split -n l/4 -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shard_
echo "node: $(nproc) cores"
/work/wt-h88/.venv/bin/python run_shards.py http://127.0.0.1:33443/v1
cat out_*/rollouts.jsonl > rollouts.jsonl
wc -l rollouts.jsonl
/work/wt-h88/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
