#!/bin/bash
# merge the overlapping shards into one deduplicated dataset
source /work/wt-h22/tests/data/diagnosis_corpus/held_out/infra_builtin_prepare_sort_spills_to_full_node_tmpdir/run/job_env.sh
cd /work/wt-h22/tests/data/diagnosis_corpus/held_out/infra_builtin_prepare_sort_spills_to_full_node_tmpdir/run
echo "TMPDIR=$TMPDIR"; df -h $TMPDIR
sort -u --buffer-size=16K data/shard_*.jsonl > data/string_match.jsonl
echo "$(wc -l < data/string_match.jsonl) unique rows"
