#!/bin/bash
# weekly eval with our pattern_match server
cd /work/wt-h68/tests/data/diagnosis_corpus/sixty_eighth_held_out/verifier_runtime_gym_own_verify_compiles_every_label_as_regular_expression_so_star_args_label_raises/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent pattern_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-yimrlf0n/my_gym ++head_server.port=40829 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-yimrlf0n/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
