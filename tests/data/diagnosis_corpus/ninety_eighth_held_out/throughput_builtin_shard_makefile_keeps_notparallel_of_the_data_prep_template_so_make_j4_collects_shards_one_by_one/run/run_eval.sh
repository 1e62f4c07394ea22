#!/bin/bash
# CI step: weekly eval, collect sharded four ways within the step budget
cd /work/h98/tests/data/diagnosis_corpus/ninety_eighth_held_out/throughput_builtin_shard_makefile_keeps_notparallel_of_the_data_prep_template_so_make_j4_collects_shards_one_by_one/run
/work/h98/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
mkdir -p shards && split -n l/4 -d rollouts_materialized_inputs.jsonl shards/part_
timeout 15 make -j4 collect URL=http://127.0.0.1:40475/v1 || echo "collect step stopped (exit $?)"
cat out/*.rollouts.jsonl > rollouts.jsonl
wc -l out/*.rollouts.jsonl rollouts.jsonl
/work/h98/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
