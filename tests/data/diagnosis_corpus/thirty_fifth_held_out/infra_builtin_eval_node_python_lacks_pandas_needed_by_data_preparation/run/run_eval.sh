#!/bin/bash
# weekly eval
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/infra_builtin_eval_node_python_lacks_pandas_needed_by_data_preparation/run
echo '== weekly eval'
/usr/bin/python3 prepare_data.py
/work/wt-h35/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h35/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37519/v1 --env string_match --concurrency 4
/work/wt-h35/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
