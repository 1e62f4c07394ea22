#!/bin/bash
# weekly eval
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_waits_on_node_lock_held_briefly_by_nightly_backup/run
exec 9>/tmp/ho-healthy_builtin_run_-9fint06x/node/eval.lock
if ! flock -n 9; then echo "node lock held by another job ($(cat /tmp/ho-healthy_builtin_run_-9fint06x/node/eval.lock.owner)): waiting"; flock -w 120 9 || exit 1; fi
echo '== weekly eval (node lock taken)'
/work/wt-h39/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h39/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35703/v1 --env string_match --concurrency 4
/work/wt-h39/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
