#!/bin/bash
# weekly eval with our answer_review server
cd /work/wt-h59/tests/data/diagnosis_corpus/fifty_ninth_held_out/healthy_gym_own_server_logs_every_wrong_answer_at_error_level_for_label_review/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent answer_review_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-c8auults/my_gym ++head_server.port=34559 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-c8auults/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
