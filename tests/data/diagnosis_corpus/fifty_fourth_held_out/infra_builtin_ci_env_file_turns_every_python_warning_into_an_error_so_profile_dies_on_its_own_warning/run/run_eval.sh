#!/bin/bash
# weekly eval
cd /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/infra_builtin_ci_env_file_turns_every_python_warning_into_an_error_so_profile_dies_on_its_own_warning/run
# same Python settings as the CI runners
source ci.env
echo '== weekly eval'
/work/wt-h54/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h54/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44447/v1 --env string_match --concurrency 4
/work/wt-h54/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
