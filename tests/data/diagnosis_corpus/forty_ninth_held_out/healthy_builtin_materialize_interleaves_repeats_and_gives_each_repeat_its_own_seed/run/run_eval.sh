#!/bin/bash
# weekly eval
cd /work/wt-h49/tests/data/diagnosis_corpus/held_out/healthy_builtin_materialize_interleaves_repeats_and_gives_each_repeat_its_own_seed/run
echo '== weekly eval (repeats interleaved, one seed per repeat)'
/work/wt-h49/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --interleave-repeats --num-repeats-add-seed --output rollouts_materialized_inputs.jsonl
/work/wt-h49/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35809/v1 --env string_match --concurrency 4
/work/wt-h49/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
