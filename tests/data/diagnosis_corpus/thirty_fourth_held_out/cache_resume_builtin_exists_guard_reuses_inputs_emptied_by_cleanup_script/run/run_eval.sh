#!/bin/bash
# weekly eval; materialize only once (the inputs of a run never change)
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_exists_guard_reuses_inputs_emptied_by_cleanup_script/run
[ -e rollouts_materialized_inputs.jsonl ] || /work/wt-h34/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 \
  --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h34/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \
  --env string_match --concurrency 4
/work/wt-h34/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
