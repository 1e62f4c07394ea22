#!/bin/bash
# weekly eval of step_0200 on the shared server: materialize, collect, profile
cd /work/h104/tests/data/diagnosis_corpus/hundred_and_fourth_held_out/model_serving_builtin_shared_eval_server_on_degraded_node_drops_or_fails_most_completions_so_collect_loses_rollouts/run
/work/h104/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h104/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44149/v1 --env string_match --concurrency 4
/work/h104/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
wc -l rollouts.jsonl
