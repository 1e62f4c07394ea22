#!/bin/bash
# weekly eval
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/infra_builtin_node_env_security_baseline_sets_pythonsafepath_so_prep_cannot_import_its_helper/run
source node_env.sh
echo '== weekly eval'
python3 prepare_data.py
/work/wt-h41/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h41/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35841/v1 --env string_match --concurrency 4
/work/wt-h41/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
