#!/bin/bash
# weekly eval
cd /work/wt-h22/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_byte_compiles_legacy_python2_tools/run
echo "== checking tools"
python3 -m compileall -q tools/
python3 tools/count_rows.py string_match.jsonl
/work/wt-h22/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h22/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33873/v1 --env string_match --concurrency 4
/work/wt-h22/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
