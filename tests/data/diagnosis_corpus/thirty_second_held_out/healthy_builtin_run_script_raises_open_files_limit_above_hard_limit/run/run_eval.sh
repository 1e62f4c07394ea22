#!/bin/bash
# weekly eval
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_raises_open_files_limit_above_hard_limit/run
ulimit -n 99999999 || echo '(open files limit left as it is)'
echo "== weekly eval, $(date)"
/work/wt-h32/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h32/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35821/v1 --env string_match --concurrency 4
/work/wt-h32/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
