#!/bin/bash
# weekly eval; only the first lines of the eval's output (the settings) on the console
cd /work/wt-h61/tests/data/diagnosis_corpus/sixty_first_held_out/config_gym_run_script_pipes_eval_output_through_head_so_the_closed_pipe_ends_the_eval_midway/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 2 ++route_failures_to_sidecar=true ++head_server.port=57733 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-en3hzbxi/server_venvs ++skip_venv_if_present=true 2>&1 | head -n 25
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
