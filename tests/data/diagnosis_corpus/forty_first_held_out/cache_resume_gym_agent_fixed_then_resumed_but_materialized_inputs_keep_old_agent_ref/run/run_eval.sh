#!/bin/bash
# weekly eval
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/cache_resume_gym_agent_fixed_then_resumed_but_materialized_inputs_keep_old_agent_ref/run
source eval.env
echo "== weekly MCQA eval with $AGENT (resumes where an earlier attempt stopped)"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent $AGENT --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 2 ++route_failures_to_sidecar=true ++head_server.port=52565 ++uv_venv_dir=/tmp/ho-cache_resume_gym_age-bgjrsg16/server_venvs ++skip_venv_if_present=true ++resume_from_cache=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
