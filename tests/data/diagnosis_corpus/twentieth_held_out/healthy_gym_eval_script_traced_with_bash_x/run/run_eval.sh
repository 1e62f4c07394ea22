#!/bin/bash
# nightly eval
OUT=results
REPEATS=3
CONCURRENCY=4
mkdir -p $OUT
for f in /work/wt-h20/tests/data/diagnosis_corpus/held_out/healthy_gym_eval_script_traced_with_bash_x/run/tasks.jsonl; do wc -l $f; done
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input /work/wt-h20/tests/data/diagnosis_corpus/held_out/healthy_gym_eval_script_traced_with_bash_x/run/tasks.jsonl --output $OUT/rollouts.jsonl --num-repeats $REPEATS --concurrency $CONCURRENCY ++route_failures_to_sidecar=true ++head_server.port=47593 ++uv_venv_dir=/tmp/ho-healthy_gym_eval_scr-8ra5hdwu/server_venvs ++skip_venv_if_present=true
ls -l $OUT
