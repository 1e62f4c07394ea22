#!/bin/bash
# weekly eval
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_relies_on_set_e_inside_function_called_with_or_so_failed_copy_is_ignored/run
prepare() {
  set -e  # stop at the first failing step
  cp exports/labels_$(date +%G-%V).csv labels.csv  # this week's labels from the annotation export
  python3 prepare_data.py
  echo "prepared $(wc -l < string_match.jsonl) tasks"
}
prepare || { echo 'preparing the data failed, stopping'; exit 1; }
echo '== weekly eval'
/work/wt-h43/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h43/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40991/v1 --env string_match --concurrency 4
/work/wt-h43/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
