#!/bin/bash
# weekly eval: one request in flight per replica slot
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/throughput_gym_eval_concurrency_sized_for_replicas_of_retired_deployment/run
source serving.env
CONCURRENCY=$((REPLICAS * PER_REPLICA))
echo "concurrency $CONCURRENCY ($REPLICAS replicas x $PER_REPLICA)"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency $CONCURRENCY ++route_failures_to_sidecar=true ++head_server.port=60361 ++uv_venv_dir=/tmp/ho-throughput_gym_eval_-iujo11vq/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl ++allow_partial_rollouts=True
