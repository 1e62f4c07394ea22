#!/bin/bash
# weekly eval, recorded with `script` like our interactive sessions
cd /work/wt-h61/tests/data/diagnosis_corpus/sixty_first_held_out/healthy_gym_eval_recorded_with_script_command_so_its_log_is_full_of_carriage_returns/run
script -q -e -c "/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=42791 ++uv_venv_dir=/tmp/ho-healthy_gym_eval_rec-oh4ypqx8/server_venvs ++skip_venv_if_present=true" logs/eval_typescript.log
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
