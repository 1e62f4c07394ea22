#!/bin/bash
# weekly eval
cd /work/wt-h51/tests/data/diagnosis_corpus/held_out/config_gym_regression_model_yaml_sampling_overrides_force_greedy_on_variance_profiling_eval/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=45297 ++uv_venv_dir=/tmp/ho-config_gym_regressio-kcilz8df/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
