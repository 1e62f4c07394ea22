#!/bin/bash
# weekly eval
cd /work/wt-h33/tests/data/diagnosis_corpus/held_out/infra_builtin_node_path_puts_shared_tools_launcher_of_removed_venv_first/run
source ./node_env.sh
which gym-pipeline
gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35441/v1 --env string_match --concurrency 4
gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
