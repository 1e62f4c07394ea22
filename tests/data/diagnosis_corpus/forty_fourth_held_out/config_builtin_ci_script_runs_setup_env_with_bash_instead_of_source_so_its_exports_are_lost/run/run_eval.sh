#!/bin/bash
# weekly eval
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/config_builtin_ci_script_runs_setup_env_with_bash_instead_of_source_so_its_exports_are_lost/run
MODEL_URL=${MODEL_URL:-http://127.0.0.1:8000/v1}   # the default vLLM port
echo "== weekly eval against $MODEL_URL"
/work/wt-h44/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h44/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/wt-h44/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
