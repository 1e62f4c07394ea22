#!/bin/bash
# weekly eval
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_turns_echo_off_with_stty_without_a_terminal/run
echo '== weekly eval'
# hide the API key while it is typed (when run by hand)
stty -echo
read -r -t 1 -p 'API key (enter for the one in the environment): ' KEY || true
stty echo
echo
export EVAL_API_KEY=${KEY:-dummy}
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=49703 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-l1o_f63l/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
