#!/bin/bash
# weekly eval of both splits, into one results folder
cd /work/wt-h65/tests/data/diagnosis_corpus/sixty_fifth_held_out/healthy_gym_dev_and_test_evals_share_one_results_folder_under_their_own_output_stems/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input dev.jsonl --output results/dev_rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=47837 ++uv_venv_dir=/tmp/ho-healthy_gym_dev_and_-03s7umes/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input test.jsonl --output results/test_rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=47837 ++uv_venv_dir=/tmp/ho-healthy_gym_dev_and_-03s7umes/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/dev_rollouts_materialized_inputs.jsonl --rollouts results/dev_rollouts.jsonl
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/test_rollouts_materialized_inputs.jsonl --rollouts results/test_rollouts.jsonl
