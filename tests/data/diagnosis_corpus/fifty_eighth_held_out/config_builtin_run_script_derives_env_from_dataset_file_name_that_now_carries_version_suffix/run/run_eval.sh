#!/bin/bash
# weekly eval of the labelling team's latest export
cd /work/wt-h58/tests/data/diagnosis_corpus/fifty_eighth_held_out/config_builtin_run_script_derives_env_from_dataset_file_name_that_now_carries_version_suffix/run
DATA=string_match_v2.jsonl
ENV=$(basename $DATA .jsonl)   # the environment is named after its dataset
echo "== weekly eval of $DATA (env $ENV)"
/work/wt-h58/.venv/bin/gym-pipeline materialize --input $DATA --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h58/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41711/v1 --env $ENV --concurrency 4
/work/wt-h58/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
