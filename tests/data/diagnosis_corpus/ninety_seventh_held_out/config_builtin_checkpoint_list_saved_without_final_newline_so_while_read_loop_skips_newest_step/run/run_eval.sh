#!/bin/bash
# weekly eval of every checkpoint in checkpoints.txt
cd /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/config_builtin_checkpoint_list_saved_without_final_newline_so_while_read_loop_skips_newest_step/run
while read -r step url; do
  echo "== $step at $url"
  mkdir -p results/$step
  /work/h97/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
    --output results/$step/rollouts_materialized_inputs.jsonl
  /work/h97/.venv/bin/gym-pipeline collect --inputs results/$step/rollouts_materialized_inputs.jsonl --output results/$step/rollouts.jsonl \
    --model-url "$url" --env string_match --concurrency 4
  /work/h97/.venv/bin/gym-pipeline profile --inputs results/$step/rollouts_materialized_inputs.jsonl --rollouts results/$step/rollouts.jsonl
done < checkpoints.txt
echo "evaluated: $(ls results | tr '\n' ' ')"
