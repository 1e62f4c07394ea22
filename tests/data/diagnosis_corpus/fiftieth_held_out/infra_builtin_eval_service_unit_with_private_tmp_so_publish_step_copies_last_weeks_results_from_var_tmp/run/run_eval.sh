#!/bin/bash
# run_eval.sh: the eval in fast local /var/tmp; publish.sh copies the results to the shared folder afterwards
OUT=/var/tmp/capitals-weekly-eval-4eroei
rm -rf $OUT && mkdir -p $OUT && cd $OUT
cp /work/wt-h50/tests/data/diagnosis_corpus/held_out/infra_builtin_eval_service_unit_with_private_tmp_so_publish_step_copies_last_weeks_results_from_var_tmp/run/string_match.jsonl .
/work/wt-h50/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h50/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
/work/wt-h50/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
