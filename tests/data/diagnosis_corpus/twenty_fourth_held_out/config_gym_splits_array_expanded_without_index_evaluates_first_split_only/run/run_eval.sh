#!/bin/bash
# eval of every split
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/config_gym_splits_array_expanded_without_index_evaluates_first_split_only/run
SPLITS=(dev test)
for split in $SPLITS; do
  echo "== split $split"
  /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input splits/$split.jsonl --output results/$split/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=58773 ++uv_venv_dir=/tmp/ho-config_gym_splits_ar-78umq8i3/server_venvs ++skip_venv_if_present=true
  /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/$split/rollouts_materialized_inputs.jsonl --rollouts results/$split/rollouts.jsonl
done
echo "run_eval.sh: all splits done"
