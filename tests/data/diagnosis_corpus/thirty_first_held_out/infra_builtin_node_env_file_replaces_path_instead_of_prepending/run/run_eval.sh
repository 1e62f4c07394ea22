#!/bin/bash
# weekly eval
cd /work/wt-h31/tests/data/diagnosis_corpus/held_out/infra_builtin_node_env_file_replaces_path_instead_of_prepending/run
export PATH=/work/wt-h31/.venv/bin:$PATH   # the project's venv (gym-pipeline)
source ./node_env.sh
echo "== weekly eval with $(command -v gym-pipeline || echo 'no gym-pipeline on PATH')"
gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39821/v1 \
  --env string_match --concurrency 4
gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
