#!/bin/bash
# weekly eval
cd /work/wt-h28/tests/data/diagnosis_corpus/held_out/infra_builtin_chaos_drill_rule_left_resets_model_connections_at_random/run
echo "== weekly eval against $(hostname)"
/work/wt-h28/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h28/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38395/v1 --env string_match --concurrency 4
/work/wt-h28/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
