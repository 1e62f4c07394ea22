#!/bin/bash
# weekly eval
cd /work/wt-h47/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_checks_metrics_push_gateway_that_does_not_run_on_the_eval_node/run
echo '== weekly eval'
# push-gateway of the team's Prometheus: is it up on this node? (the eval's metrics go there when it is)
curl -sS --max-time 3 http://127.0.0.1:9091/-/ready || echo '(no metrics gateway on this node: not pushed)'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=60187 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-lxs8se4l/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
