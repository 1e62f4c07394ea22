#!/bin/bash
# weekly eval
cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/healthy_gym_run_notes_read_code_version_from_missing_checkout/run
echo "== eval tools: $(git -C /root/src/eval-tools describe --always --dirty)"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=56309 ++uv_venv_dir=/tmp/ho-healthy_gym_run_note-871wd_0f/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
