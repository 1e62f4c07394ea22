#!/bin/bash
# weekly eval with our clamped_match server
cd /work/wt-h59/tests/data/diagnosis_corpus/fifty_ninth_held_out/verifier_runtime_gym_own_verify_clamps_reward_with_min_and_max_swapped_so_every_reward_is_zero/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent clamped_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-94cm3stt/my_gym ++head_server.port=54783 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-94cm3stt/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
