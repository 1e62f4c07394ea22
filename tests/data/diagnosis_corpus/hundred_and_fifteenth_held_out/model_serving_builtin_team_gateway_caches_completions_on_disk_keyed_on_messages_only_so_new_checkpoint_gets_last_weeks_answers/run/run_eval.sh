#!/bin/bash
# weekly eval of step_0200 through the team gateway
cd /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/model_serving_builtin_team_gateway_caches_completions_on_disk_keyed_on_messages_only_so_new_checkpoint_gets_last_weeks_answers/run
/work/h115/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h115/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38833/v1 --env string_match --concurrency 4
/work/h115/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
