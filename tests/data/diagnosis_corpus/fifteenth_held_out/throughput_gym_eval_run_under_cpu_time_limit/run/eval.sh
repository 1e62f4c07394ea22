#!/bin/bash
ulimit -t 4
echo "ulimit -t: $(ulimit -t)"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input /work/wt-h15/tests/data/diagnosis_corpus/held_out/throughput_gym_eval_run_under_cpu_time_limit/run/tasks.jsonl --output /work/wt-h15/tests/data/diagnosis_corpus/held_out/throughput_gym_eval_run_under_cpu_time_limit/run/results/rollouts.jsonl --num-repeats 8 --concurrency 8 ++route_failures_to_sidecar=true ++head_server.port=41979 ++uv_venv_dir=/tmp/ho-throughput_gym_eval_-onbh6fz_/server_venvs ++skip_venv_if_present=true
