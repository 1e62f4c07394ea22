#!/bin/bash
# weekly eval; concurrency raised from 4 to 16 to finish sooner
cd /work/wt-h65/tests/data/diagnosis_corpus/sixty_fifth_held_out/throughput_gym_eval_concurrency_raised_to_sixteen_against_shared_server_admitting_two_running_two_waiting/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 16 ++route_failures_to_sidecar=true ++head_server.port=37767 ++uv_venv_dir=/tmp/ho-throughput_gym_eval_-urb5zfff/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
