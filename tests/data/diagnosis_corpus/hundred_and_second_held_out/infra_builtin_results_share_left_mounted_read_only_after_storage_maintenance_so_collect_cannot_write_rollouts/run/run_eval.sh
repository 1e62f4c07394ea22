#!/bin/bash
# weekly eval: results into the team share
cd /work/h102/tests/data/diagnosis_corpus/hundred_and_second_held_out/infra_builtin_results_share_left_mounted_read_only_after_storage_maintenance_so_collect_cannot_write_rollouts/run
cd results
/work/h102/.venv/bin/gym-pipeline materialize --input ../string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h102/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34121/v1 --env string_match --concurrency 4
/work/h102/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
ls -la
