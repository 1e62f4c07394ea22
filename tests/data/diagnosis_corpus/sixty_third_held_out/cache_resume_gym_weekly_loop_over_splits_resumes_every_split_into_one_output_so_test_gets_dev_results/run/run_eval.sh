#!/bin/bash
# weekly eval of both splits (--resume: a crashed week picks up where it stopped)
cd /work/wt-h63/tests/data/diagnosis_corpus/sixty_third_held_out/cache_resume_gym_weekly_loop_over_splits_resumes_every_split_into_one_output_so_test_gets_dev_results/run
mkdir -p reports
for SPLIT in dev test; do
  echo "== split $SPLIT"
  /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --resume --no-serve --agent string_match_simple_agent --input $SPLIT.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=52345 ++uv_venv_dir=/tmp/ho-cache_resume_gym_wee-52e9v12u/server_venvs ++skip_venv_if_present=true
  /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
  cp results/rollouts_reward_profiling.jsonl reports/${SPLIT}_profile.jsonl
done
wc -l reports/*.jsonl
