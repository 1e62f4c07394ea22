#!/bin/bash
# weekly eval
cd /work/wt-h31/tests/data/diagnosis_corpus/held_out/config_gym_run_script_brace_pattern_in_variable_assignment_not_expanded/run
SPLITS=data/{easy,hard}.jsonl
cat $SPLITS > tasks.jsonl
echo "== weekly eval of $SPLITS: $(wc -l < tasks.jsonl) tasks"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=45091 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-pd9km0bo/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
