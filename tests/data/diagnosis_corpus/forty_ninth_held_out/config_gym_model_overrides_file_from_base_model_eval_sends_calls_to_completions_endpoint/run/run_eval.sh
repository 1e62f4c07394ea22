#!/bin/bash
# weekly eval
cd /work/wt-h49/tests/data/diagnosis_corpus/held_out/config_gym_model_overrides_file_from_base_model_eval_sends_calls_to_completions_endpoint/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=53565 ++uv_venv_dir=/tmp/ho-config_gym_model_ove-93rc_onq/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
