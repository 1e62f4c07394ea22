#!/bin/bash
# weekly eval; strict mode like all our scripts
set -euo pipefail
cd /work/wt-h37/tests/data/diagnosis_corpus/held_out/config_builtin_strict_run_script_stops_at_read_of_url_file_without_final_newline/run
read -r MODEL_URL < model_url.txt   # written by the serve script
echo "== weekly eval against $MODEL_URL"
/work/wt-h37/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h37/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/wt-h37/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
