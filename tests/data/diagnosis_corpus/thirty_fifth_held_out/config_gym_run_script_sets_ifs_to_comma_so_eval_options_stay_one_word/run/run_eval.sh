#!/bin/bash
# weekly eval: the split to evaluate comes from splits.csv (one line: name,file)
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/config_gym_run_script_sets_ifs_to_comma_so_eval_options_stay_one_word/run
IFS=, read -r NAME FILE < splits.csv
echo "== weekly eval of $NAME ($FILE)"
IFS=,    # the settings below are comma-separated lists too
EVAL_OPTS="--num-repeats 3 --concurrency 4"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input $FILE --output results/rollouts.jsonl $EVAL_OPTS ++route_failures_to_sidecar=true ++head_server.port=37161 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-dcv0dvcb/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
