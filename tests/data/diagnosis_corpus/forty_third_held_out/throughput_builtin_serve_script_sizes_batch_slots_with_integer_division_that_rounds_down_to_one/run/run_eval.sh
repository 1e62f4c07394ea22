#!/bin/bash
# weekly eval
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/throughput_builtin_serve_script_sizes_batch_slots_with_integer_division_that_rounds_down_to_one/run
echo '== weekly eval'
/work/wt-h43/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 4 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h43/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36531/v1 --env string_match --concurrency 8
/work/wt-h43/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
