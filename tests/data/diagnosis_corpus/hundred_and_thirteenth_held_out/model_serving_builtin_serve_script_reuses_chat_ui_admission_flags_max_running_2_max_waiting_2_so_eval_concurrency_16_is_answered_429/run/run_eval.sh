#!/bin/bash
# weekly eval of step_0200 (served by serve_policy.sh)
cd /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/model_serving_builtin_serve_script_reuses_chat_ui_admission_flags_max_running_2_max_waiting_2_so_eval_concurrency_16_is_answered_429/run
/work/h113/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h113/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:51309/v1 --env string_match --concurrency 16
/work/h113/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
