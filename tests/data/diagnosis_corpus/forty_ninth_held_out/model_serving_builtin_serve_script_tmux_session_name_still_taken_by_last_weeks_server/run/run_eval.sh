#!/bin/bash
# weekly eval
cd /work/wt-h49/tests/data/diagnosis_corpus/held_out/model_serving_builtin_serve_script_tmux_session_name_still_taken_by_last_weeks_server/run
echo '== weekly eval'
/work/wt-h49/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h49/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:50083/v1 --env string_match --concurrency 4
/work/wt-h49/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
