#!/bin/bash
# weekly eval of the checkpoint the model server runs; one results folder per checkpoint, never evaluated twice
CKPT=/tmp/ho-cache_resume_gym_ski-il7rdmpy/checkpoints/latest
CKPT_NAME=$(basename "$CKPT")
OUT=/work/wt-h22/tests/data/diagnosis_corpus/held_out/cache_resume_gym_skip_guard_keyed_on_latest_symlink_name/run/results/$CKPT_NAME
if [ -s "$OUT/rollouts.jsonl" ]; then
  echo "$CKPT_NAME already evaluated ($OUT), skipping the eval"
else
  mkdir -p "$OUT"
  /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input /work/wt-h22/tests/data/diagnosis_corpus/held_out/cache_resume_gym_skip_guard_keyed_on_latest_symlink_name/run/tasks.jsonl \
    --output "$OUT/rollouts.jsonl" --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=59579 ++uv_venv_dir=/tmp/ho-cache_resume_gym_ski-il7rdmpy/server_venvs ++skip_venv_if_present=true
fi
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs "$OUT/rollouts_materialized_inputs.jsonl" --rollouts "$OUT/rollouts.jsonl"
