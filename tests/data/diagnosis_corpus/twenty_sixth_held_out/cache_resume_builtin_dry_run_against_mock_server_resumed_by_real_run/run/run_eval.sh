#!/bin/bash
# usage: run_eval.sh MODEL_URL   (collects with --resume, so a preempted run picks up where it stopped)
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_dry_run_against_mock_server_resumed_by_real_run/run
URL=$1
/work/wt-h26/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h26/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $URL \
  --env string_match --concurrency 4 --resume
/work/wt-h26/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
