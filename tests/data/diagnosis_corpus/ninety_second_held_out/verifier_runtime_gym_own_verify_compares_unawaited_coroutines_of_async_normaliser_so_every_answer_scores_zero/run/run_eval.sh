#!/bin/bash
# weekly eval with our quiz_alias server
cd /work/h92/tests/data/diagnosis_corpus/ninety_second_held_out/verifier_runtime_gym_own_verify_compares_unawaited_coroutines_of_async_normaliser_so_every_answer_scores_zero/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_alias_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-evys407b/my_gym ++head_server.port=43301 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-evys407b/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
