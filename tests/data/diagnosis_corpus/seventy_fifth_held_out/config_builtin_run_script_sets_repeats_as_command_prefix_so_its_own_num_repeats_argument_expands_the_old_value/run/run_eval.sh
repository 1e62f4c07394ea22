#!/bin/bash
# weekly variance study: 8 samples per task
cd /work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/config_builtin_run_script_sets_repeats_as_command_prefix_so_its_own_num_repeats_argument_expands_the_old_value/run
source ./eval_defaults.sh
# variance study: 8 samples per task
REPEATS=8 /work/wt-h75/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h75/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33409/v1 --env string_match --concurrency $CONCURRENCY
/work/wt-h75/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
