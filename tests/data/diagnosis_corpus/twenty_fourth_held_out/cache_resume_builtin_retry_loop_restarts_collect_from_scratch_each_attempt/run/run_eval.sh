#!/bin/bash
# weekly eval on the preemptible queue: the slot is taken back after 15 s, so the collection is retried
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_retry_loop_restarts_collect_from_scratch_each_attempt/run
/work/wt-h24/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
for attempt in 1 2 3; do
  echo "== run_eval.sh: collect attempt $attempt"
  timeout 15 /work/wt-h24/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \
    --model-url http://127.0.0.1:40669/v1 --env string_match --concurrency 1 && break
  echo "attempt $attempt did not finish: $(wc -l < rollouts.jsonl) rollouts so far, retrying"
done
/work/wt-h24/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
