#!/bin/bash
# weekly eval
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_checks_results_folder_for_other_writers_with_lsof_before_it_exists/run
echo '== weekly eval'
# two runs writing one results folder overwrite each other: check that nothing else has it open
lsof +D results || echo '(no other process has results/ open)'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=42971 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-o6h9fpst/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
