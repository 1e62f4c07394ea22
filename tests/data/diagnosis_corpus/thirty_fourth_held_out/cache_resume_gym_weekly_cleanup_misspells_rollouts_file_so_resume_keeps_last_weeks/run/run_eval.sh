#!/bin/bash
# weekly eval of the served checkpoint; restartable with --resume if the node goes away mid-run
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/cache_resume_gym_weekly_cleanup_misspells_rollouts_file_so_resume_keeps_last_weeks/run
rm -f results/rollout.jsonl results/rollouts_reward_profiling.jsonl   # a fresh start every week
echo "== weekly eval, $(date +%F)"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=51761 ++uv_venv_dir=/tmp/ho-cache_resume_gym_wee-cpez0b1k/server_venvs ++skip_venv_if_present=true --resume
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
