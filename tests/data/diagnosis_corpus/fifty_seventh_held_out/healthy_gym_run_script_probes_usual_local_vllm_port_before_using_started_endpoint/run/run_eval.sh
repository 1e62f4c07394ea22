#!/bin/bash
# weekly eval
cd /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/healthy_gym_run_script_probes_usual_local_vllm_port_before_using_started_endpoint/run
# the team's vLLM usually runs on this node's port 8000; this week the model is served elsewhere
curl -sS -m 2 http://127.0.0.1:8000/v1/models || echo 'note: no local vLLM on :8000, using the endpoint that gym env start was given'
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=34929 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-p25sc3qa/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
