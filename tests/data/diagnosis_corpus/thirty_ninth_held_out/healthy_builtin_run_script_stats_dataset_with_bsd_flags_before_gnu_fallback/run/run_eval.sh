#!/bin/bash
# weekly eval
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_stats_dataset_with_bsd_flags_before_gnu_fallback/run
echo "dataset modified: $(stat -f %m string_match.jsonl || stat -c %Y string_match.jsonl)"
echo '== weekly eval'
/work/wt-h39/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h39/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40149/v1 --env string_match --concurrency 4
/work/wt-h39/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
