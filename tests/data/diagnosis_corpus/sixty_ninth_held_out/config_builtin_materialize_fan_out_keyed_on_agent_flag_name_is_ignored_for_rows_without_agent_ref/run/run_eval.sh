#!/bin/bash
# weekly eval: every task on both agents (simple and chain-of-thought), 2 repeats each
cd /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/config_builtin_materialize_fan_out_keyed_on_agent_flag_name_is_ignored_for_rows_without_agent_ref/run
FAN_OUT='{"string_match_simple_agent": ["string_match_simple_agent", "string_match_cot_agent"]}'
/work/wt-h69/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 2 --agent string_match_simple_agent --fan-out "$FAN_OUT" --output rollouts_materialized_inputs.jsonl
/work/wt-h69/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41299/v1 --env string_match --concurrency 4
/work/wt-h69/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
