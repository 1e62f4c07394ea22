#!/bin/bash
# weekly eval: 4 repeats a task for the pass@k and variance columns of the profile
cd /work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/config_gym_run_script_comment_line_inside_backslash_continued_eval_command_cuts_off_num_repeats/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl \
  --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=40577 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-h1vdbhyo/server_venvs ++skip_venv_if_present=true \
  # ++limit=2 \
  --num-repeats 4
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
