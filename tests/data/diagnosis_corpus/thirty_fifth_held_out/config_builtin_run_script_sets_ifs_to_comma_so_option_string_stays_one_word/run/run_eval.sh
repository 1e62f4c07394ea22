#!/bin/bash
# weekly eval: the split list comes from splits.csv (one line: name,file)
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_sets_ifs_to_comma_so_option_string_stays_one_word/run
IFS=, read -r NAME FILE < splits.csv
echo "== weekly eval of $NAME ($FILE)"
IFS=,    # the CSV columns below are comma separated too
OPTS="--num-repeats 3 --agent string_match_simple_agent"
/work/wt-h35/.venv/bin/gym-pipeline materialize --input $FILE $OPTS --output rollouts_materialized_inputs.jsonl
/work/wt-h35/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36635/v1 \
  --env string_match --concurrency 4
/work/wt-h35/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
