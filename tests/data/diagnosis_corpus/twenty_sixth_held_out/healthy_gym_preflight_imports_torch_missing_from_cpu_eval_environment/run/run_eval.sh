#!/bin/bash
# weekly eval
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/healthy_gym_preflight_imports_torch_missing_from_cpu_eval_environment/run
echo "== GPU check"
python3 -c 'import torch; print("cuda:", torch.cuda.is_available())'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=51789 ++uv_venv_dir=/tmp/ho-healthy_gym_prefligh-49bxwpbr/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
