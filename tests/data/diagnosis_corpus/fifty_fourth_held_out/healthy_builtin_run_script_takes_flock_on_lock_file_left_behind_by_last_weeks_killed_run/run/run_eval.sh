#!/bin/bash
# weekly eval
cd /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/healthy_builtin_run_script_takes_flock_on_lock_file_left_behind_by_last_weeks_killed_run/run
# one weekly eval at a time on this node: the lock file stays between runs, flock (not its existence) decides
if [ -e eval.lock ]; then echo "note: eval.lock is there (written by pid $(cat eval.lock) on $(date -r eval.lock +%F)); flock decides"; fi
exec 9>>eval.lock
flock -n 9 || { echo 'another weekly eval holds eval.lock: not starting'; exit 1; }
echo $$ > eval.lock
echo '== weekly eval'
/work/wt-h54/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h54/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34799/v1 --env string_match --concurrency 4
/work/wt-h54/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
