#!/bin/bash
# weekly eval
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_template_turns_globbing_off_with_set_f_so_dataset_parts_are_never_joined/run
set -f  # from the team's script template: no globbing (the annotation tool's file names may hold '*' and '?')
echo '== weekly eval'
# this week's tasks come in parts from the annotation tool
cat data/part_*.jsonl > string_match.jsonl
echo "$(wc -l < string_match.jsonl) tasks"
/work/wt-h46/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h46/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40859/v1 --env string_match --concurrency 4
/work/wt-h46/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
