#!/bin/bash
# weekly eval
cd /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/data_schema_builtin_prep_script_run_by_sh_whose_echo_turns_escaped_backslashes_of_prompts_into_control_codes/run
echo '== weekly eval: prepare'
sh prep.sh
/work/wt-h54/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h54/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40981/v1 --env string_match --concurrency 4
/work/wt-h54/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
