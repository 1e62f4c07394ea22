#!/bin/bash
# weekly eval; the run is archived once profiled (quota)
cd /work/wt-h23/tests/data/diagnosis_corpus/held_out/healthy_builtin_rollouts_gzipped_after_profile/run
/work/wt-h23/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h23/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34915/v1 --env string_match --concurrency 4
/work/wt-h23/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
echo "== archiving"
gzip -9 -v rollouts.jsonl rollouts_materialized_inputs.jsonl
ls -l
