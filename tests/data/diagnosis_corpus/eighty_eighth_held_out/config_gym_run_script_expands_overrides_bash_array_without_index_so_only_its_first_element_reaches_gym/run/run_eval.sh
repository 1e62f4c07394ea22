#!/bin/bash
# weekly eval against the running `gym env start` (its overrides kept in one place)
cd /work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/config_gym_run_script_expands_overrides_bash_array_without_index_so_only_its_first_element_reaches_gym/run
GYM_ARGS=(--agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3
          --concurrency 4)
GYM_OVERRIDES=(++route_failures_to_sidecar=true ++head_server.port=34417 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-l6zd7wsu/server_venvs ++skip_venv_if_present=true)
echo "gym eval run: ${#GYM_ARGS[@]} arguments, ${#GYM_OVERRIDES[@]} overrides"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve "${GYM_ARGS[@]}" $GYM_OVERRIDES
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
