#!/bin/bash
# re-run the tasks that FAILED in the 2026-11-26 run (failed_tasks.jsonl)
echo "retrying $(wc -l < /work/wt-h21/tests/data/diagnosis_corpus/held_out/healthy_gym_retry_eval_of_last_weeks_failed_tasks/run/data/failed_tasks.jsonl) failed tasks"
mkdir -p /work/wt-h21/tests/data/diagnosis_corpus/held_out/healthy_gym_retry_eval_of_last_weeks_failed_tasks/run/results/retry_of_failed
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input /work/wt-h21/tests/data/diagnosis_corpus/held_out/healthy_gym_retry_eval_of_last_weeks_failed_tasks/run/data/failed_tasks.jsonl --output /work/wt-h21/tests/data/diagnosis_corpus/held_out/healthy_gym_retry_eval_of_last_weeks_failed_tasks/run/results/retry_of_failed/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=58549 ++uv_venv_dir=/tmp/ho-healthy_gym_retry_ev-7m361rha/server_venvs ++skip_venv_if_present=true
