#!/bin/bash
# eval job
source /work/wt-h21/tests/data/diagnosis_corpus/held_out/infra_gym_eval_run_under_stack_limit_given_in_kilobytes/run/job_limits.sh
echo "eval of $(wc -l < /work/wt-h21/tests/data/diagnosis_corpus/held_out/infra_gym_eval_run_under_stack_limit_given_in_kilobytes/run/tasks.jsonl) tasks"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input /work/wt-h21/tests/data/diagnosis_corpus/held_out/infra_gym_eval_run_under_stack_limit_given_in_kilobytes/run/tasks.jsonl --output /work/wt-h21/tests/data/diagnosis_corpus/held_out/infra_gym_eval_run_under_stack_limit_given_in_kilobytes/run/results/rollouts.jsonl --num-repeats 2 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=44833 ++uv_venv_dir=/tmp/ho-infra_gym_eval_run_u-ho6qmmvm/server_venvs ++skip_venv_if_present=true
echo "gym eval run exit code $?"
