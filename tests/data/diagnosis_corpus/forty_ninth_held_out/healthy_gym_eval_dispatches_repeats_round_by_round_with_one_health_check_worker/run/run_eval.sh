#!/bin/bash
# weekly eval
cd /work/wt-h49/tests/data/diagnosis_corpus/held_out/healthy_gym_eval_dispatches_repeats_round_by_round_with_one_health_check_worker/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=37861 ++uv_venv_dir=/tmp/ho-healthy_gym_eval_dis-kf7xjnig/server_venvs ++skip_venv_if_present=true --interleave-repeats --health-check-workers 1
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
