#!/bin/bash
# weekly eval of the labelling team's shards
cd /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/data_schema_builtin_two_shard_exports_each_number_ng_task_index_from_zero_so_merged_questions_share_tasks/run
echo "== this week's questions: the two labelling shards, merged"
cat exports/shard_a.jsonl exports/shard_b.jsonl > string_match.jsonl
echo "questions: $(wc -l < string_match.jsonl)"
/work/wt-h67/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h67/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35249/v1 --env string_match --concurrency 4
/work/wt-h67/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
