#!/bin/bash
# weekly eval with our norm_match server
cd /work/wt-h65/tests/data/diagnosis_corpus/sixty_fifth_held_out/verifier_runtime_gym_own_verify_calls_sync_normaliser_that_runs_asyncio_run_inside_the_servers_event_loop/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent norm_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-1mi4aicl/my_gym ++head_server.port=58349 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-1mi4aicl/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
