#!/bin/bash
# weekly eval
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/throughput_builtin_login_limits_cap_open_files_at_twenty_so_concurrent_collect_runs_out_of_descriptors/run
echo "== weekly eval (open files limit: $(ulimit -n))"
/work/wt-h45/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 4 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h45/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42829/v1 --env string_match --concurrency 16
/work/wt-h45/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
