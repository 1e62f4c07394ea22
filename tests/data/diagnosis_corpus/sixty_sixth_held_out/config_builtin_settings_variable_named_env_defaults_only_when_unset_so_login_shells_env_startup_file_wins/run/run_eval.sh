#!/bin/bash
# weekly eval
cd /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/config_builtin_settings_variable_named_env_defaults_only_when_unset_so_login_shells_env_startup_file_wins/run
source eval_settings.sh
echo "== env $ENV, repeats $REPEATS"
/work/wt-h66/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent ${ENV}_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h66/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35319/v1 --env $ENV --concurrency $CONCURRENCY
/work/wt-h66/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
