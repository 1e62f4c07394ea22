#!/bin/bash
# weekly eval, with the team's system prompt and temperature
cd /work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/config_builtin_materialize_responses_create_params_override_with_system_input_replaces_every_rows_question/run
source eval_settings.sh
/work/wt-h64/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --responses-create-params "$RESPONSES_OVERRIDES" --output rollouts_materialized_inputs.jsonl
/work/wt-h64/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34317/v1 --env string_match --concurrency 4
/work/wt-h64/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
