#!/bin/bash
# weekly eval; settings in eval.cfg
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/config_gym_run_script_greps_repeats_from_commented_smoke_test_line/run
REPEATS=$(grep num_repeats eval.cfg | head -1 | awk '{print $3}')
CONCURRENCY=$(grep concurrency eval.cfg | head -1 | awk '{print $2}')
echo "weekly eval: $REPEATS repeats, concurrency $CONCURRENCY"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats $REPEATS --concurrency $CONCURRENCY ++route_failures_to_sidecar=true ++head_server.port=44739 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-bvm6pa64/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
