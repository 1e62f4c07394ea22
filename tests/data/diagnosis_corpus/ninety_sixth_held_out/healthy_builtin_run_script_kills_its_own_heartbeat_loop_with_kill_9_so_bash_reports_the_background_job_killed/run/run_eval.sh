#!/bin/bash
# weekly eval with a heartbeat for the CI dashboard: materialize, collect, profile
cd /work/h96/tests/data/diagnosis_corpus/ninety_sixth_held_out/healthy_builtin_run_script_kills_its_own_heartbeat_loop_with_kill_9_so_bash_reports_the_background_job_killed/run
( while sleep 2; do echo "[heartbeat] $(date +%T) eval still running"; done ) &
HB=$!
/work/h96/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h96/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39867/v1 --env string_match --concurrency 4
/work/h96/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
kill -9 $HB
wait $HB
echo "weekly eval finished"
