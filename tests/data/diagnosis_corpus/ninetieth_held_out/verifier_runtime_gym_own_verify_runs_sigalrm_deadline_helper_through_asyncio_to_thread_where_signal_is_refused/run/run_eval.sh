#!/bin/bash
# weekly eval with our quiz_deadline server
cd /work/wt-h90/tests/data/diagnosis_corpus/ninetieth_held_out/verifier_runtime_gym_own_verify_runs_sigalrm_deadline_helper_through_asyncio_to_thread_where_signal_is_refused/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_deadline_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-mxa9p7xu/my_gym ++head_server.port=45929 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-mxa9p7xu/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
