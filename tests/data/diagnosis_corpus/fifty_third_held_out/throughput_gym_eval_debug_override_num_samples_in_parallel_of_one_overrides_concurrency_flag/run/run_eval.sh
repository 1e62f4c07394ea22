#!/bin/bash
# weekly eval
cd /work/wt-h53/tests/data/diagnosis_corpus/fifty_third_held_out/throughput_gym_eval_debug_override_num_samples_in_parallel_of_one_overrides_concurrency_flag/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true $(grep -v '^#' ci_overrides.txt) ++head_server.port=49039 ++uv_venv_dir=/tmp/ho-throughput_gym_eval_-xiegkeu5/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
