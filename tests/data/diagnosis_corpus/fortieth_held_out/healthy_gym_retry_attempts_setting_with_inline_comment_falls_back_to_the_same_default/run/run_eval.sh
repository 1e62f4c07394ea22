#!/bin/bash
# weekly eval
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/healthy_gym_retry_attempts_setting_with_inline_comment_falls_back_to_the_same_default/run
while IFS= read -r line; do case "$line" in ''|'#'*) ;; *) export "$line" ;; esac; done < eval.env
echo "== $EVAL_SPLIT eval (resumes where an earlier attempt stopped)"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 2 ++route_failures_to_sidecar=true ++head_server.port=32935 ++uv_venv_dir=/tmp/ho-healthy_gym_retry_at-nz5hgfea/server_venvs ++skip_venv_if_present=true ++resume_from_cache=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
