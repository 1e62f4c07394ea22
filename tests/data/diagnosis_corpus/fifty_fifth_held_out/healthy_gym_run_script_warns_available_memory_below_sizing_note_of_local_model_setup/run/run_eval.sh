#!/bin/bash
# weekly eval
cd /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/healthy_gym_run_script_warns_available_memory_below_sizing_note_of_local_model_setup/run
# the sizing note of the local-model setup: 64 GB free for the model server and Gym side by side
free_mb=$(free -m | awk '/^Mem:/ {print $7}')
if [ "$free_mb" -lt 65536 ]; then echo "WARNING: only ${free_mb} MB available, 65536 MB recommended; the model server is remote here, continuing"; fi
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=60745 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-g4c92hna/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
