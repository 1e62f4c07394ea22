#!/bin/bash
# the preemptible job of step_0200's eval (its slot is taken back after 8 s)
mkdir -p /work/wt-h25/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_cache_restore_cp_r_nests_into_existing_results_folder/run/cache/step_0200 && cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_cache_restore_cp_r_nests_into_existing_results_folder/run/cache/step_0200
/work/wt-h25/.venv/bin/gym-pipeline materialize --input ../../string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
timeout 8 /work/wt-h25/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37681/v1 \
  --env string_match --concurrency 1
echo "preempted: $(wc -l < rollouts.jsonl) rollouts kept in cache/step_0200"
